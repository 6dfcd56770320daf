"""The work of Scripts/check-xcodeproj.sh (which says what is checked and why).

    python3 sample_projects.py [--write | --self-test] ROOT

ROOT is the repository. The project, Examples/MailApp/MailApp.xcodeproj/project.pbxproj, lists the
sample's files by name (no folder synchronized by Xcode 16: what it builds can be checked here,
file by file), and is written by this script from the files on disk (--write): Swift files at the
top of Examples/MailApp are the app's, in ShareExtension/ the share extension's, in Shared/ both
targets'. Without --write the committed project must be what the script writes, and it is then
read back as Xcode reads it (an OpenStep property list) and checked for what an Xcode build needs.
"""

import hashlib
import os
import plistlib
import re
import shutil
import sys
import tempfile

SAMPLE = "Examples/MailApp"
PROJECT = SAMPLE + "/MailApp.xcodeproj/project.pbxproj"
APP, EXTENSION = "MailApp", "MailShare"
# Each target's package products: the app the SwiftUI adapter (which brings the host), the share
# extension the host and the engine it writes with.
PRODUCTS = {APP: ["StateStoreSwiftUI", "StateStoreHost"], EXTENSION: ["StateStoreHost", "StateStore"]}
FILE_TYPES = {".swift": "sourcecode.swift", ".plist": "text.plist.xml", ".entitlements": "text.plist.entitlements",
              ".xcconfig": "text.xcconfig", ".md": "net.daringfireball.markdown"}


# MARK: - The files

def sample_files(root):
    """The sample's files as the project lists them: {group: [names]}, group "" the top."""
    folder = os.path.join(root, SAMPLE)
    def names(sub, suffixes):
        path = os.path.join(folder, sub)
        return sorted(name for name in os.listdir(path) if os.path.splitext(name)[1] in suffixes
                      and os.path.isfile(os.path.join(path, name)))
    return {
        "": names("", {".swift", ".plist", ".entitlements", ".xcconfig", ".md"}),
        "Shared": names("Shared", {".swift"}),
        "ShareExtension": names("ShareExtension", {".swift", ".plist", ".entitlements"}),
    }


def expected_sources(files):
    """Each target's Swift files, as paths inside Examples/MailApp: what Scripts/check-swiftui.sh
    type-checks as the app and as the extension."""
    swift = lambda group: [os.path.join(group, name) for name in files[group] if name.endswith(".swift")]
    return {APP: swift("") + swift("Shared"), EXTENSION: swift("ShareExtension") + swift("Shared")}


# MARK: - Writing

def identifier(key):
    return hashlib.sha1(("StateStore sample " + key).encode()).hexdigest()[:24].upper()


def quoted(value):
    if re.fullmatch(r"[A-Za-z0-9_./]+", value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def render(value, names, indent):
    """OpenStep text of value (dict, list or str), ids followed by their names as comments."""
    tabs = "\t" * indent
    if isinstance(value, dict):
        lines = ["{"]
        for key, item in value.items():
            lines.append(f"{tabs}\t{quoted(key)} = {render(item, names, indent + 1)};")
        return "\n".join(lines) + f"\n{tabs}}}"
    if isinstance(value, list):
        lines = ["("]
        for item in value:
            lines.append(f"{tabs}\t{render(item, names, indent + 1)},")
        return "\n".join(lines) + f"\n{tabs})"
    text = quoted(value)
    return f"{text} /* {names[value]} */" if value in names else text


def project(root):
    """The project's text, from the files on disk."""
    files = sample_files(root)
    objects, names = {}, {}

    def add(key, label, isa, /, **fields):
        ident = identifier(key)
        objects[ident] = dict(isa=isa, **fields)
        names[ident] = label
        return ident

    def file_reference(group, name):
        path = os.path.join(group, name)
        return add("file " + path, name, "PBXFileReference", lastKnownFileType=FILE_TYPES[os.path.splitext(name)[1]],
                   path=name, sourceTree="<group>")

    references = {os.path.join(group, name): file_reference(group, name) for group in files for name in files[group]}
    app_product = add("product app", f"{APP}.app", "PBXFileReference", explicitFileType="wrapper.application",
                      includeInIndex="0", path=f"{APP}.app", sourceTree="BUILT_PRODUCTS_DIR")
    extension_product = add("product extension", f"{EXTENSION}.appex", "PBXFileReference",
                            explicitFileType="wrapper.app-extension", includeInIndex="0", path=f"{EXTENSION}.appex",
                            sourceTree="BUILT_PRODUCTS_DIR")
    products_group = add("group Products", "Products", "PBXGroup", children=[app_product, extension_product],
                         name="Products", sourceTree="<group>")
    groups = {group: add("group " + group, group, "PBXGroup",
                         children=[references[os.path.join(group, name)] for name in files[group]],
                         path=group, sourceTree="<group>") for group in ("Shared", "ShareExtension")}
    main_group = add("group main", "MailApp", "PBXGroup",
                     children=[references[name] for name in files[""]] + [groups["Shared"], groups["ShareExtension"],
                                                                           products_group],
                     sourceTree="<group>")
    package = add("package", 'XCLocalSwiftPackageReference "../.."', "XCLocalSwiftPackageReference",
                  relativePath="../..")
    xcconfig = references["MailApp.xcconfig"]

    def configurations(owner, settings):
        """A configuration list of Debug and Release, each with settings (and the debug/release ones)."""
        made = []
        for name in ("Debug", "Release"):
            fields = dict(settings.get("both", {}), **settings.get(name, {}))
            made.append(add(f"configuration {owner} {name}", name, "XCBuildConfiguration",
                            **({"baseConfigurationReference": xcconfig} if owner == "project" else {}),
                            buildSettings=dict(sorted(fields.items())), name=name))
        return add(f"configurations {owner}", f'Build configuration list for {owner}', "XCConfigurationList",
                   buildConfigurations=made, defaultConfigurationIsVisible="0", defaultConfigurationName="Release")

    sources = expected_sources(files)

    def target(name, product, product_type, settings, extra_phases=(), dependencies=()):
        build_files = [add(f"build {name} {path}", os.path.basename(path) + " in Sources", "PBXBuildFile",
                           fileRef=references[path]) for path in sources[name]]
        product_dependencies = [add(f"product {name} {product_name}", product_name, "XCSwiftPackageProductDependency",
                                    package=package, productName=product_name) for product_name in PRODUCTS[name]]
        frameworks = [add(f"link {name} {product_name}", product_name + " in Frameworks", "PBXBuildFile",
                          productRef=dependency)
                      for product_name, dependency in zip(PRODUCTS[name], product_dependencies)]
        phases = [
            add(f"sources {name}", "Sources", "PBXSourcesBuildPhase", buildActionMask="2147483647", files=build_files,
                runOnlyForDeploymentPostprocessing="0"),
            add(f"frameworks {name}", "Frameworks", "PBXFrameworksBuildPhase", buildActionMask="2147483647",
                files=frameworks, runOnlyForDeploymentPostprocessing="0"),
            add(f"resources {name}", "Resources", "PBXResourcesBuildPhase", buildActionMask="2147483647", files=[],
                runOnlyForDeploymentPostprocessing="0"),
        ] + list(extra_phases)
        return add("target " + name, name, "PBXNativeTarget", buildConfigurationList=configurations(name, settings),
                   buildPhases=phases, buildRules=[], dependencies=list(dependencies), name=name,
                   packageProductDependencies=product_dependencies, productName=name, productReference=product,
                   productType=product_type)

    signing = {"CODE_SIGN_STYLE": "Automatic", "CURRENT_PROJECT_VERSION": "1", "GENERATE_INFOPLIST_FILE": "NO",
               "MARKETING_VERSION": "0.3.0", "PRODUCT_NAME": "$(TARGET_NAME)", "SWIFT_EMIT_LOC_STRINGS": "YES"}
    extension = target(EXTENSION, extension_product, "com.apple.product-type.app-extension", {"both": dict(
        signing, APPLICATION_EXTENSION_API_ONLY="YES",
        CODE_SIGN_ENTITLEMENTS="ShareExtension/MailShare.entitlements", INFOPLIST_FILE="ShareExtension/Info.plist",
        LD_RUNPATH_SEARCH_PATHS=["$(inherited)", "@executable_path/Frameworks", "@executable_path/../../Frameworks"],
        PRODUCT_BUNDLE_IDENTIFIER="$(BUNDLE_ID_PREFIX).mail.share", SKIP_INSTALL="YES")})
    proxy = add("proxy extension", "PBXContainerItemProxy", "PBXContainerItemProxy",
                containerPortal=identifier("project"), proxyType="1", remoteGlobalIDString=extension,
                remoteInfo=EXTENSION)
    dependency = add("dependency extension", "PBXTargetDependency", "PBXTargetDependency", target=extension,
                     targetProxy=proxy)
    embed_file = add("embed extension", f"{EXTENSION}.appex in Embed Foundation Extensions", "PBXBuildFile",
                     fileRef=extension_product, settings={"ATTRIBUTES": ["RemoveHeadersOnCopy"]})
    embed = add("embed", "Embed Foundation Extensions", "PBXCopyFilesBuildPhase", buildActionMask="2147483647",
                dstPath="", dstSubfolderSpec="13", files=[embed_file], name="Embed Foundation Extensions",
                runOnlyForDeploymentPostprocessing="0")
    app = target(APP, app_product, "com.apple.product-type.application", {"both": dict(
        signing, CODE_SIGN_ENTITLEMENTS="MailApp.entitlements", INFOPLIST_FILE="Info.plist",
        LD_RUNPATH_SEARCH_PATHS=["$(inherited)", "@executable_path/Frameworks"],
        PRODUCT_BUNDLE_IDENTIFIER="$(BUNDLE_ID_PREFIX).mail")}, extra_phases=[embed], dependencies=[dependency])

    project_settings = {
        "both": {
            "ALWAYS_SEARCH_USER_PATHS": "NO", "CLANG_ENABLE_MODULES": "YES", "CLANG_ENABLE_OBJC_ARC": "YES",
            "ENABLE_STRICT_OBJC_MSGSEND": "YES", "ENABLE_USER_SCRIPT_SANDBOXING": "YES",
            "GCC_C_LANGUAGE_STANDARD": "gnu17", "IPHONEOS_DEPLOYMENT_TARGET": "17.0", "SDKROOT": "iphoneos",
            "SWIFT_VERSION": "6.0", "TARGETED_DEVICE_FAMILY": "1,2",
        },
        "Debug": {
            "DEBUG_INFORMATION_FORMAT": "dwarf", "ENABLE_TESTABILITY": "YES", "GCC_OPTIMIZATION_LEVEL": "0",
            "ONLY_ACTIVE_ARCH": "YES", "SWIFT_ACTIVE_COMPILATION_CONDITIONS": "DEBUG $(inherited)",
            "SWIFT_OPTIMIZATION_LEVEL": "-Onone",
        },
        "Release": {
            "DEBUG_INFORMATION_FORMAT": "dwarf-with-dsym", "SWIFT_COMPILATION_MODE": "wholemodule",
            "VALIDATE_PRODUCT": "YES",
        },
    }
    objects[identifier("project")] = dict(
        isa="PBXProject",
        attributes={"BuildIndependentTargetsInParallel": "1", "LastSwiftUpdateCheck": "1600",
                    "LastUpgradeCheck": "1600"},
        buildConfigurationList=configurations("project", project_settings), developmentRegion="en",
        hasScannedForEncodings="0", knownRegions=["en", "Base"], mainGroup=main_group,
        minimizedProjectReferenceProxies="1", packageReferences=[package], preferredProjectObjectVersion="77",
        productRefGroup=products_group, projectDirPath="", projectRoot="", targets=[app, extension])
    names[identifier("project")] = 'Project object'
    names[objects[identifier("project")]["buildConfigurationList"]] = 'Build configuration list for PBXProject "MailApp"'
    for name, ident in ((APP, app), (EXTENSION, extension)):
        names[objects[ident]["buildConfigurationList"]] = f'Build configuration list for PBXNativeTarget "{name}"'

    lines = ["// !$*UTF8*$!", "{", "\tarchiveVersion = 1;", "\tclasses = {", "\t};", "\tobjectVersion = 77;",
             "\tobjects = {"]
    for isa in sorted({item["isa"] for item in objects.values()}):
        lines.append("")
        lines.append(f"/* Begin {isa} section */")
        for ident in sorted(ident for ident, item in objects.items() if item["isa"] == isa):
            lines.append(f"\t\t{ident} /* {names[ident]} */ = {render(objects[ident], names, 2)};")
        lines.append(f"/* End {isa} section */")
    lines += ["\t};", f"\trootObject = {identifier('project')} /* Project object */;", "}", ""]
    return "\n".join(lines)


# MARK: - Reading, as Xcode reads it

class Parser:
    TOKEN = re.compile(r'\s+|//[^\n]*|/\*.*?\*/|"(?:[^"\\]|\\.)*"|[A-Za-z0-9_$+./:-]+|[{}()=;,]', re.S)

    def __init__(self, text):
        self.tokens = []
        position = 0
        while position < len(text):
            match = self.TOKEN.match(text, position)
            if not match:
                raise ValueError(f"unexpected {text[position:position + 20]!r} at byte {position}")
            token = match.group(0)
            position = match.end()
            if token[0].isspace() or token.startswith("//") or token.startswith("/*"):
                continue
            self.tokens.append(token)
        self.index = 0

    def next(self):
        if self.index >= len(self.tokens):
            raise ValueError("the text ends inside a value")
        self.index += 1
        return self.tokens[self.index - 1]

    def expect(self, token):
        found = self.next()
        if found != token:
            raise ValueError(f"expected {token!r}, found {found!r}")

    def value(self):
        token = self.next()
        if token == "{":
            result = {}
            while self.tokens[self.index] != "}":
                key = self.string(self.next())
                self.expect("=")
                if key in result:
                    raise ValueError(f"key {key!r} twice in one dictionary")
                result[key] = self.value()
                self.expect(";")
            self.next()
            return result
        if token == "(":
            result = []
            while self.tokens[self.index] != ")":
                result.append(self.value())
                if self.tokens[self.index] == ",":
                    self.next()
                elif self.tokens[self.index] != ")":
                    raise ValueError(f"expected ',' or ')', found {self.tokens[self.index]!r}")
            self.next()
            return result
        return self.string(token)

    @staticmethod
    def string(token):
        if token in "{}()=;,":
            raise ValueError(f"expected a string, found {token!r}")
        if token.startswith('"'):
            return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), token[1:-1])
        return token


def parse(text):
    parser = Parser(text)
    result = parser.value()
    if parser.index != len(parser.tokens):
        raise ValueError("text after the project's dictionary")
    return result


# MARK: - Checking

def read_plist(path):
    with open(path, "rb") as file:
        return plistlib.load(file)


def xcconfig_settings(path):
    settings = {}
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.split("//", 1)[0].strip()
            if "=" in line:
                key, value = line.split("=", 1)
                settings[key.strip()] = value.strip()
    return settings


def expand(value, settings):
    return re.sub(r"\$\((\w+)\)", lambda m: settings.get(m.group(1), m.group(0)), value)


def validate(text, root):
    """The problems of the project text, as an Xcode build of Examples/MailApp would meet them."""
    problems = []
    try:
        plist = parse(text)
    except ValueError as error:
        return [f"not a property list Xcode can read: {error}"]
    objects = plist.get("objects", {})
    if plist.get("objectVersion") not in ("77",):
        problems.append(f"objectVersion {plist.get('objectVersion')}, not 77 (Xcode 16, the oldest the package supports)")

    def references(value):
        if isinstance(value, dict):
            for item in value.values():
                yield from references(item)
        elif isinstance(value, list):
            for item in value:
                yield from references(item)
        elif re.fullmatch(r"[0-9A-F]{24}", value):
            yield value

    for ident, item in objects.items():
        if not isinstance(item, dict) or "isa" not in item:
            problems.append(f"object {ident} has no isa")
            continue
        for reference in references({k: v for k, v in item.items() if k != "remoteGlobalIDString"}):
            if reference not in objects:
                problems.append(f"{item['isa']} {ident} refers to {reference}, which is no object of the project")
        if "remoteGlobalIDString" in item and item["remoteGlobalIDString"] not in objects:
            problems.append(f"{ident}: the proxied target {item['remoteGlobalIDString']} is no object")
    root_object = objects.get(plist.get("rootObject", ""))
    if not root_object or root_object.get("isa") != "PBXProject":
        return problems + ["the rootObject is no PBXProject"]
    if problems:
        return problems

    # Where each file reference points, through its groups.
    folder = os.path.join(root, SAMPLE)
    paths = {}

    def walk(group_id, base):
        group = objects[group_id]
        for child_id in group.get("children", []):
            child = objects[child_id]
            path = os.path.normpath(os.path.join(base, child.get("path", ""))) if child.get("sourceTree") == "<group>" \
                else None
            if child["isa"] == "PBXGroup":
                walk(child_id, path if path is not None else base)
            elif path is not None:
                paths[child_id] = path

    walk(root_object["mainGroup"], "")
    for ident, path in paths.items():
        if not os.path.exists(os.path.join(folder, path)):
            problems.append(f"{path}: in the project, not in {SAMPLE}")

    targets = {objects[ident]["name"]: objects[ident] for ident in root_object.get("targets", [])}
    kinds = {APP: "com.apple.product-type.application", EXTENSION: "com.apple.product-type.app-extension"}
    missing = [name for name in kinds if name not in targets]
    if missing:
        return problems + [f"no target {name}" for name in missing]
    for name, kind in kinds.items():
        if targets[name].get("productType") != kind:
            problems.append(f"target {name} is a {targets[name].get('productType')}, not {kind}")

    # The package: the repository's root, its products.
    packages = [objects[ident] for ident in root_object.get("packageReferences", [])]
    local = [package for package in packages if package["isa"] == "XCLocalSwiftPackageReference"]
    if len(local) != 1 or len(packages) != 1:
        problems.append("the project's one package reference is not the local one, ../..")
    elif not os.path.samefile(os.path.join(folder, local[0].get("relativePath", "")), root):
        problems.append(f"the local package {local[0].get('relativePath')} is not the repository's root")
    with open(os.path.join(root, "Package.swift"), encoding="utf-8") as file:
        declared = set(re.findall(r'\.(?:library|executable)\(name: "([^"]+)"', file.read()))

    files = sample_files(root)
    wanted = expected_sources(files)
    xcconfig = {}
    base = objects[root_object["buildConfigurationList"]]
    for configuration_id in base["buildConfigurations"]:
        reference = objects[configuration_id].get("baseConfigurationReference")
        if reference in paths:
            xcconfig = xcconfig_settings(os.path.join(folder, paths[reference]))
    if not xcconfig:
        problems.append("the project's configurations have no base .xcconfig")

    bundle_ids = {}
    for name, target in targets.items():
        phases = [objects[ident] for ident in target.get("buildPhases", [])]
        sources = [paths.get(objects[build].get("fileRef"), "?") for phase in phases
                   if phase["isa"] == "PBXSourcesBuildPhase" for build in phase.get("files", [])]
        if sorted(sources) != sorted(wanted.get(name, [])):
            problems.append(f"target {name} compiles {sorted(sources)}, not what Scripts/check-swiftui.sh type-checks, "
                            f"{sorted(wanted.get(name, []))} (Scripts/check-xcodeproj.sh --write)")
        dependencies = {objects[ident].get("productName"): ident for ident in target.get("packageProductDependencies", [])}
        for product in PRODUCTS[name]:
            if product not in dependencies:
                problems.append(f"target {name} does not depend on the package's {product}")
            elif objects[dependencies[product]].get("package") not in root_object.get("packageReferences", []):
                problems.append(f"target {name}'s {product} is not the local package's")
            if product not in declared:
                problems.append(f"{product} is no product of Package.swift")
        linked = {objects[build].get("productRef") for phase in phases if phase["isa"] == "PBXFrameworksBuildPhase"
                  for build in phase.get("files", [])}
        for product, ident in dependencies.items():
            if ident not in linked:
                problems.append(f"target {name} does not link {product}")
        for configuration_id in objects[target["buildConfigurationList"]]["buildConfigurations"]:
            configuration = objects[configuration_id]
            settings = dict(xcconfig, **configuration.get("buildSettings", {}))
            label = f"{name} ({configuration.get('name')})"
            for key in ("INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS"):
                if not settings.get(key):
                    problems.append(f"{label}: no {key}")
                elif not os.path.isfile(os.path.join(folder, settings[key])):
                    problems.append(f"{label}: {key} {settings[key]} does not exist")
            bundle_ids[name] = expand(settings.get("PRODUCT_BUNDLE_IDENTIFIER", ""), settings)
            if not all(os.path.isfile(os.path.join(folder, settings.get(key) or "-"))
                       for key in ("INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS")):
                continue
            info = read_plist(os.path.join(folder, settings["INFOPLIST_FILE"]))
            entitlements = read_plist(os.path.join(folder, settings["CODE_SIGN_ENTITLEMENTS"]))
            groups = [expand(group, settings) for group in entitlements.get("com.apple.security.application-groups", [])]
            app_group = shared_app_group(root)
            if app_group not in groups:
                problems.append(f"{label}: the entitlements' App Groups {groups} do not hold {app_group}, "
                                "the group Shared/MailRoute.swift names")
            if name == APP:
                schemes = [scheme for kind in info.get("CFBundleURLTypes", []) for scheme in kind.get("CFBundleURLSchemes", [])]
                if link_scheme(root) not in schemes:
                    problems.append(f"{label}: Info.plist registers the URL schemes {schemes}, not "
                                    f"'{link_scheme(root)}', which MailLink.swift reads")
                if info.get("UIApplicationSceneManifest", {}).get("UIApplicationSupportsMultipleScenes") is not True:
                    problems.append(f"{label}: Info.plist does not support multiple scenes (the sample's windows)")
            else:
                point = info.get("NSExtension", {}).get("NSExtensionPointIdentifier")
                if point != "com.apple.share-services":
                    problems.append(f"{label}: Info.plist's extension point is {point}, not com.apple.share-services")
    if len(bundle_ids) == 2 and not bundle_ids[EXTENSION].startswith(bundle_ids[APP] + "."):
        problems.append(f"the extension's bundle id {bundle_ids[EXTENSION]} is not inside the app's {bundle_ids[APP]}")
    # The app builds and embeds the extension.
    app = targets[APP]
    extension_id = next(ident for ident in root_object["targets"] if objects[ident]["name"] == EXTENSION)
    if not any(objects[ident].get("target") == extension_id for ident in app.get("dependencies", [])):
        problems.append(f"{APP} does not depend on {EXTENSION}")
    embedded = [objects[build].get("fileRef") for ident in app.get("buildPhases", []) if objects[ident]["isa"] ==
                "PBXCopyFilesBuildPhase" and objects[ident].get("dstSubfolderSpec") == "13"
                for build in objects[ident].get("files", [])]
    if objects[extension_id].get("productReference") not in embedded:
        problems.append(f"{APP} does not embed {EXTENSION}.appex among its extensions")
    return problems


def shared_app_group(root):
    with open(os.path.join(root, SAMPLE, "Shared/MailRoute.swift"), encoding="utf-8") as file:
        match = re.search(r'static let appGroup = "([^"]+)"', file.read())
    return match.group(1) if match else "(none: Shared/MailRoute.swift names no appGroup)"


def link_scheme(root):
    with open(os.path.join(root, SAMPLE, "MailLink.swift"), encoding="utf-8") as file:
        match = re.search(r'url\.scheme == "([^"]+)"', file.read())
    return match.group(1) if match else "(none: MailLink.swift reads no scheme)"


# MARK: - Running

def self_test(root):
    """Plants in a scratch copy of the sample: each fault must be found."""
    text = project(root)
    if validate(text, root):
        return [f"self-test: the project as written has problems: {validate(text, root)}"]
    failures = []
    plants = {
        "a dangling reference": (lambda t: re.sub(r"\n\t\t([0-9A-F]{24}) /\* Embed Foundation Extensions \*/ = \{.*?\n\t\t\};",
                                                  "", t, count=1, flags=re.S), "which is no object"),
        "no share extension target": (lambda t: re.sub(r"(targets = \(\n\t+[0-9A-F]{24} /\* MailApp \*/,)\n\t+[0-9A-F]{24} /\* MailShare \*/,",
                                                      r"\1", t), "no target MailShare"),
        "a missing product": (lambda t: t.replace("productName = StateStoreSwiftUI;", "productName = StateStoreUI;"),
                              "does not depend on the package's StateStoreSwiftUI"),
        "not a property list": (lambda t: t.replace("objects = {", "objects = {{", 1), "not a property list"),
    }
    for name, (plant, expected) in plants.items():
        planted = plant(text)
        if planted == text:
            failures.append(f"self-test: {name}: the plant changed nothing")
        elif not any(expected in problem for problem in validate(planted, root)):
            failures.append(f"self-test: {name} was not found ({validate(planted, root)})")
    # A URL scheme the app does not register, in a scratch copy of the repository's sample.
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copy(os.path.join(root, "Package.swift"), scratch)
        shutil.copytree(os.path.join(root, SAMPLE), os.path.join(scratch, SAMPLE), symlinks=True)
        info = os.path.join(scratch, SAMPLE, "Info.plist")
        with open(info, encoding="utf-8") as file:
            plist = file.read()
        with open(info, "w", encoding="utf-8") as file:
            file.write(plist.replace("<string>mail</string>", "<string>letters</string>"))
        if not any("not 'mail'" in problem for problem in validate(text, scratch)):
            failures.append("self-test: an Info.plist without the mail scheme was not found")
        os.remove(os.path.join(scratch, SAMPLE, "ShareExtension/MailShare.entitlements"))
        if not any("CODE_SIGN_ENTITLEMENTS ShareExtension/MailShare.entitlements does not exist" in problem
                   for problem in validate(text, scratch)):
            failures.append("self-test: a missing entitlements file was not found")
    return failures


def main():
    arguments = sys.argv[1:]
    root = os.path.abspath(arguments[-1])
    path = os.path.join(root, PROJECT)
    if "--self-test" in arguments:
        failures = self_test(root)
        for failure in failures:
            print("error: " + failure)
        if not failures:
            print("Xcode project check self-test: a dangling reference, a missing target, a missing product, "
                  "a broken property list, a missing URL scheme and a missing entitlements file are each found")
        return 1 if failures else 0
    text = project(root)
    if "--write" in arguments:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
    problems = []
    try:
        with open(path, encoding="utf-8") as file:
            committed = file.read()
    except FileNotFoundError:
        committed = ""
        problems.append(f"{PROJECT} does not exist (Scripts/check-xcodeproj.sh --write)")
    if committed and committed != text:
        problems.append(f"{PROJECT} is not what the sample's files make: a file added, removed or renamed, or the "
                        "project edited by hand (Scripts/check-xcodeproj.sh --write, then read the diff)")
    if committed:
        problems += [f"{PROJECT}: {problem}" for problem in validate(committed, root)]
    for problem in problems:
        print("error: " + problem)
    if problems:
        return 1
    targets = expected_sources(sample_files(root))
    print(f"{PROJECT}: {APP} ({len(targets[APP])} Swift files; {', '.join(PRODUCTS[APP])}) and {EXTENSION} "
          f"({len(targets[EXTENSION])}; {', '.join(PRODUCTS[EXTENSION])}), embedded; the package ../..; "
          f"Info.plist with the '{link_scheme(root)}' scheme; App Group {shared_app_group(root)} in both entitlements")
    return 0


if __name__ == "__main__":
    sys.exit(main())
