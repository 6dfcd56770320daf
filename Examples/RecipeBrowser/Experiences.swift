#if canImport(SwiftUI)
    import StateStoreHost
    import StateStoreSwiftUI
    import SwiftUI

    // MARK: - wiring: recipe window

    /// A window in the experience it chose, each experience a tab of its own (its place kept when
    /// the user switches), the picker that chooses it, and the recipe of the day's link.
    struct RecipeWindow: View {
        @Bindable var window: WindowModel<Recipe>

        var body: some View {
            let experience = window[selectedTab: Experience.self]
            Group {
                switch experience {
                case .stack: StackExperience(window: window.tab(experience))
                case .twoColumn: TwoColumnExperience(window: window.tab(experience))
                case .threeColumn: ThreeColumnExperience(window: window.tab(experience))
                }
            }
            .toolbar {
                ExperiencePicker(experience: $window[selectedTab: Experience.self])
                Button("Recipe of the Day") {
                    experience.show(Library.shared.recipeOfTheDay, in: window.tab(experience))
                }
            }
            .onOpenURL { url in
                guard let recipe = Library.shared.recipe(linkedBy: url) else { return }
                experience.show(recipe, in: window.tab(experience))
            }
        }
    }

    // MARK: - wiring: stack window

    /// Every category's recipes in one list, a recipe pushed onto one stack.
    struct StackExperience: View {
        let window: WindowModel<Recipe>

        var body: some View {
            AdaptiveNavigationStack(window) {
                RecipesByCategory()
            } destination: { recipe in
                RecipeDetail(recipe: recipe)
            }
        }
    }

    // MARK: - wiring: two-column window

    /// Categories in the sidebar; the selected category's recipes in the detail column, a recipe
    /// pushed onto its stack.
    struct TwoColumnExperience: View {
        let window: WindowModel<Recipe>

        var body: some View {
            AdaptiveSplitView(window, sidebar: Category.self) { category in
                CategoryList(selection: category)
            } detail: { category in
                RecipeGrid(category: category)
            } destination: { recipe in
                RecipeDetail(recipe: recipe)
            }
        }
    }

    // MARK: - wiring: three-column window

    /// Categories, the selected category's recipes, and the selected recipe, related recipes pushed
    /// onto the detail column's stack.
    struct ThreeColumnExperience: View {
        let window: WindowModel<Recipe>

        var body: some View {
            AdaptiveSplitView(window, sidebar: Category.self, content: Recipe.ID.self) { category in
                CategoryList(selection: category)
            } content: { category, recipe in
                RecipeList(category: category, selection: recipe)
            } detail: { recipe in
                RecipeDetail(recipe: recipe.flatMap(Library.shared.recipe(id:)))
            } destination: { recipe in
                RecipeDetail(recipe: recipe)
            }
        }
    }

    // MARK: - wiring: a recipe shown by a link, in whichever experience a window shows

    extension Experience {
        /// Shows `recipe` in `window`, a tab of this experience, as a link does: its category and
        /// it, in one revision.
        @MainActor func show(_ recipe: Recipe, in window: WindowModel<Recipe>) {
            switch self {
            case .stack: window.navigate(to: [recipe])
            case .twoColumn: window.navigate(sidebar: recipe.category, to: [recipe])
            case .threeColumn: window.navigate(sidebar: recipe.category, content: recipe.id)
            }
        }
    }
#endif
