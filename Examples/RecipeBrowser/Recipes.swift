#if canImport(SwiftUI)
    import Foundation
    import StateStoreHost
    import SwiftUI

    // MARK: - app: the recipes, their categories, and the experiences a window can show them in

    /// How a window shows the recipes.
    enum Experience: String, CaseIterable, Identifiable, TabKey {
        case stack, twoColumn, threeColumn

        var id: Self { self }

        var name: String {
            switch self {
            case .stack: "Stack"
            case .twoColumn: "Two columns"
            case .threeColumn: "Three columns"
            }
        }
    }

    enum Category: String, CaseIterable, Codable, Hashable, Identifiable {
        case dessert, pancake, salad, sandwich

        var id: Self { self }
        var name: String { rawValue.capitalized }
    }

    /// A recipe: what a window's stack holds.
    struct Recipe: Codable, Hashable, Identifiable, RouteRepresentable {
        let id: Int
        let name: String
        let category: Category
        let related: [Int]
    }

    /// The recipes the app has: fixed here, downloaded in a real app (and then some a window
    /// restores may be gone).
    final class Library: Sendable {
        static let shared = Library()

        let recipes: [Recipe] = [
            Recipe(id: 1, name: "Apple Pie", category: .dessert, related: [2, 5]),
            Recipe(id: 2, name: "Chocolate Cake", category: .dessert, related: [1]),
            Recipe(id: 3, name: "Buttermilk Pancakes", category: .pancake, related: [4]),
            Recipe(id: 4, name: "Crepes", category: .pancake, related: [3, 2]),
            Recipe(id: 5, name: "Fruit Salad", category: .salad, related: [1]),
            Recipe(id: 6, name: "Greek Salad", category: .salad, related: [7]),
            Recipe(id: 7, name: "Club Sandwich", category: .sandwich, related: [6]),
        ]

        var recipeOfTheDay: Recipe { recipes[Calendar.current.component(.weekday, from: Date()) % recipes.count] }

        func recipes(in category: Category?) -> [Recipe] { recipes.filter { $0.category == category } }

        func recipe(id: Recipe.ID) -> Recipe? { recipes.first { $0.id == id } }

        /// Whether the library still has `recipe`.
        func has(_ recipe: Recipe) -> Bool { self.recipe(id: recipe.id) != nil }

        /// The recipe of a `recipes://recipe/ID` link.
        func recipe(linkedBy url: URL) -> Recipe? {
            guard url.scheme == "recipes", url.host == "recipe", let id = Int(url.lastPathComponent) else { return nil }
            return recipe(id: id)
        }
    }

    struct CategoryList: View {
        @Binding var selection: Category?

        var body: some View {
            List(selection: $selection) {
                ForEach(Category.allCases) { category in
                    Text(category.name).tag(category)
                }
            }
        }
    }

    struct RecipesByCategory: View {
        var body: some View {
            List {
                ForEach(Category.allCases) { category in
                    Text(category.name)
                    ForEach(Library.shared.recipes(in: category)) { recipe in
                        NavigationLink(value: recipe) { Text(recipe.name) }
                    }
                }
            }
        }
    }

    struct RecipeGrid: View {
        let category: Category?

        var body: some View {
            List {
                ForEach(Library.shared.recipes(in: category)) { recipe in
                    NavigationLink(value: recipe) { Text(recipe.name) }
                }
            }
        }
    }

    struct RecipeList: View {
        let category: Category?
        @Binding var selection: Recipe.ID?

        var body: some View {
            List(selection: $selection) {
                ForEach(Library.shared.recipes(in: category)) { recipe in
                    Text(recipe.name).tag(recipe.id)
                }
            }
        }
    }

    struct RecipeDetail: View {
        let recipe: Recipe?

        var body: some View {
            if let recipe {
                List {
                    Text(recipe.name)
                    ForEach(recipe.related.compactMap(Library.shared.recipe(id:))) { related in
                        NavigationLink(value: related) { Text(related.name) }
                    }
                }
            } else {
                Text("Choose a recipe")
            }
        }
    }

    struct ExperiencePicker: View {
        @Binding var experience: Experience

        var body: some View {
            Picker("Experience", selection: $experience) {
                ForEach(Experience.allCases) { experience in
                    Text(experience.name).tag(experience)
                }
            }
        }
    }
#endif
