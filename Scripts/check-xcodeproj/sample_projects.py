"""The work of Scripts/check-xcodeproj.sh (which says what is checked and why).

    python3 sample_projects.py [--write | --self-test] ROOT

ROOT is the repository. Each sample app (SAMPLES: Examples/MailApp, Examples/RecipeBrowser) has a
project, Examples/NAME/NAME.xcodeproj, that lists the sample's files by name (no folder
synchronized by Xcode 16: what it builds can be checked here, file by file), and is written by this
script from the files on disk (--write): the Swift files of each target's folders are the target's
(MailApp's: those at the top of Examples/MailApp and in Shared/; its share extension's: those in
ShareExtension/ and Shared/; RecipeBrowser's: those at the top of Examples/RecipeBrowser). Without
--write each committed project must be what the script writes, and it is then read back as Xcode
reads it (an OpenStep property list) and checked for what an Xcode build needs.
"""

import hashlib
import os
import plistlib
import re
import shutil
import sys
import tempfile

APP_KIND, EXTENSION_KIND = "com.apple.product-type.application", "com.apple.product-type.app-extension"
FILE_TYPES = {".swift": "sourcecode.swift", ".plist": "text.plist.xml", ".entitlements": "text.plist.entitlements",
              ".xcconfig": "text.xcconfig", ".md": "net.daringfireball.markdown"}
# What Xcode writes into a new project's workspace, committed so that opening it changes nothing.
WORKSPACE = """<?xml version="1.0" encoding="UTF-8"?>
<Workspace
   version = "1.0">
   <FileRef
      location = "self:">
   </FileRef>
</Workspace>
"""


class Target:
    """One target of a sample: its Swift files are those of `folders` (inside the sample, "" its
    top), as Scripts/check-swiftui.sh type-checks them as a module of the target's name."""

    def __init__(self, name, folders, products, info_plist, bundle_id, entitlements=None):
        self.name, self.folders, self.products = name, folders, products
        self.info_plist, self.bundle_id, self.entitlements = info_plist, bundle_id, entitlements


class Sample:
    """A sample app and its project: an app, perhaps one app extension built first and embedded in
    it; the URL scheme its code reads (file, pattern); the App Group its code names, if any."""

    def __init__(self, name, folders, app, scheme, extension=None, app_group=None, seed=None):
        self.name, self.folder, self.folders = name, "Examples/" + name, folders
        self.app, self.extension, self.scheme, self.app_group = app, extension, scheme, app_group
        self.targets = [app] + ([extension] if extension else [])
        self.project = f"{self.folder}/{name}.xcodeproj/project.pbxproj"
        self.workspace = f"{self.folder}/{name}.xcodeproj/project.xcworkspace/contents.xcworkspacedata"
        # Hashed into each object's id: a project's ids are its own (MailApp's, the first, kept theirs).
        self.seed = seed if seed is not None else f"StateStore sample {name} "

    def identifier(self, key):
        return hashlib.sha1((self.seed + key).encode()).hexdigest()[:24].upper()


SAMPLES = [
    # The mail app: the SwiftUI adapter (which brings the host); its share extension, the host and
    # the engine it writes with, in the App Group both share.
    Sample("MailApp", ["Shared", "ShareExtension"],
           app=Target("MailApp", ["", "Shared"], ["StateStoreSwiftUI", "StateStoreHost"], "Info.plist",
                      "$(BUNDLE_ID_PREFIX).mail", entitlements="MailApp.entitlements"),
           extension=Target("MailShare", ["ShareExtension", "Shared"], ["StateStoreHost", "StateStore"],
                            "ShareExtension/Info.plist", "$(BUNDLE_ID_PREFIX).mail.share",
                            entitlements="ShareExtension/MailShare.entitlements"),
           scheme=("MailLink.swift", r'url\.scheme == "([^"]+)"'),
           app_group=("Shared/MailRoute.swift", r'static let appGroup = "([^"]+)"'), seed="StateStore sample "),
    # The recipe browser: one app, its store in its own container (no App Group, no entitlements).
    Sample("RecipeBrowser", [],
           app=Target("RecipeBrowser", [""], ["StateStoreSwiftUI", "StateStoreHost"], "Info.plist",
                      "$(BUNDLE_ID_PREFIX).recipes"),
           scheme=("Recipes.swift", r'url\.scheme == "([^"]+)"')),
]


# MARK: - The files

def sample_files(root, sample):
    """The sample's files as the project lists them: {folder: [names]}, folder "" the top."""
    def names(sub):
        path = os.path.join(root, sample.folder, sub)
        return sorted(name for name in os.listdir(path) if os.path.splitext(name)[1] in FILE_TYPES
                      and os.path.isfile(os.path.join(path, name)))
    return {folder: names(folder) for folder in [""] + sample.folders}


def expected_sources(files, sample):
    """Each target's Swift files, as paths inside the sample: what Scripts/check-swiftui.sh
    type-checks as the target's module."""
    return {target.name: [os.path.join(folder, name) for folder in target.folders for name in files[folder]
                          if name.endswith(".swift")] for target in sample.targets}


def code_names(root, sample, what):
    """What the sample's code names: its URL scheme ("scheme") or App Group ("app_group"), None
    when it names none."""
    if getattr(sample, what) is None:
        return None
    file, pattern = getattr(sample, what)
    try:
        with open(os.path.join(root, sample.folder, file), encoding="utf-8") as source:
            match = re.search(pattern, source.read())
    except FileNotFoundError:
        match = None
    return match.group(1) if match else f"(none: {file} names none)"


def imported_products(root, sample, sources, declared):
    """The package's products the Swift files `sources` import."""
    found = set()
    for path in sources:
        with open(os.path.join(root, sample.folder, path), encoding="utf-8") as file:
            found |= set(re.findall(r"^\s*import\s+(\w+)\s*$", file.read(), re.M)) & declared
    return found


# MARK: - Writing

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


def project(root, sample):
    """The sample's project text, from the files on disk."""
    files = sample_files(root, sample)
    objects, names = {}, {}
    app, extension = sample.app, sample.extension

    def add(key, label, isa, /, **fields):
        ident = sample.identifier(key)
        objects[ident] = dict(isa=isa, **fields)
        names[ident] = label
        return ident

    def file_reference(folder, name):
        path = os.path.join(folder, name)
        return add("file " + path, name, "PBXFileReference", lastKnownFileType=FILE_TYPES[os.path.splitext(name)[1]],
                   path=name, sourceTree="<group>")

    references = {os.path.join(folder, name): file_reference(folder, name) for folder in files for name in files[folder]}
    app_product = add("product app", f"{app.name}.app", "PBXFileReference", explicitFileType="wrapper.application",
                      includeInIndex="0", path=f"{app.name}.app", sourceTree="BUILT_PRODUCTS_DIR")
    products = [app_product]
    if extension:
        extension_product = add("product extension", f"{extension.name}.appex", "PBXFileReference",
                                explicitFileType="wrapper.app-extension", includeInIndex="0",
                                path=f"{extension.name}.appex", sourceTree="BUILT_PRODUCTS_DIR")
        products.append(extension_product)
    products_group = add("group Products", "Products", "PBXGroup", children=products, name="Products",
                         sourceTree="<group>")
    groups = [add("group " + folder, folder, "PBXGroup",
                  children=[references[os.path.join(folder, name)] for name in files[folder]],
                  path=folder, sourceTree="<group>") for folder in sample.folders]
    main_group = add("group main", sample.name, "PBXGroup",
                     children=[references[name] for name in files[""]] + groups + [products_group],
                     sourceTree="<group>")
    package = add("package", 'XCLocalSwiftPackageReference "../.."', "XCLocalSwiftPackageReference",
                  relativePath="../..")
    xcconfig = references[sample.name + ".xcconfig"]

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

    sources = expected_sources(files, sample)

    def target(spec, product, product_type, settings, extra_phases=(), dependencies=()):
        name = spec.name
        settings = dict(settings, INFOPLIST_FILE=spec.info_plist, PRODUCT_BUNDLE_IDENTIFIER=spec.bundle_id,
                        **({"CODE_SIGN_ENTITLEMENTS": spec.entitlements} if spec.entitlements else {}))
        build_files = [add(f"build {name} {path}", os.path.basename(path) + " in Sources", "PBXBuildFile",
                           fileRef=references[path]) for path in sources[name]]
        product_dependencies = [add(f"product {name} {product_name}", product_name, "XCSwiftPackageProductDependency",
                                    package=package, productName=product_name) for product_name in spec.products]
        frameworks = [add(f"link {name} {product_name}", product_name + " in Frameworks", "PBXBuildFile",
                          productRef=dependency)
                      for product_name, dependency in zip(spec.products, product_dependencies)]
        phases = [
            add(f"sources {name}", "Sources", "PBXSourcesBuildPhase", buildActionMask="2147483647", files=build_files,
                runOnlyForDeploymentPostprocessing="0"),
            add(f"frameworks {name}", "Frameworks", "PBXFrameworksBuildPhase", buildActionMask="2147483647",
                files=frameworks, runOnlyForDeploymentPostprocessing="0"),
            add(f"resources {name}", "Resources", "PBXResourcesBuildPhase", buildActionMask="2147483647", files=[],
                runOnlyForDeploymentPostprocessing="0"),
        ] + list(extra_phases)
        return add("target " + name, name, "PBXNativeTarget",
                   buildConfigurationList=configurations(name, {"both": settings}), buildPhases=phases, buildRules=[],
                   dependencies=list(dependencies), name=name, packageProductDependencies=product_dependencies,
                   productName=name, productReference=product, productType=product_type)

    signing = {"CODE_SIGN_STYLE": "Automatic", "CURRENT_PROJECT_VERSION": "1", "GENERATE_INFOPLIST_FILE": "NO",
               "MARKETING_VERSION": "0.3.0", "PRODUCT_NAME": "$(TARGET_NAME)", "SWIFT_EMIT_LOC_STRINGS": "YES"}
    targets, embedding = [], {}
    if extension:
        extension_target = target(extension, extension_product, EXTENSION_KIND, dict(
            signing, APPLICATION_EXTENSION_API_ONLY="YES", SKIP_INSTALL="YES",
            LD_RUNPATH_SEARCH_PATHS=["$(inherited)", "@executable_path/Frameworks",
                                     "@executable_path/../../Frameworks"]))
        targets.append(extension_target)
        proxy = add("proxy extension", "PBXContainerItemProxy", "PBXContainerItemProxy",
                    containerPortal=sample.identifier("project"), proxyType="1", remoteGlobalIDString=extension_target,
                    remoteInfo=extension.name)
        dependency = add("dependency extension", "PBXTargetDependency", "PBXTargetDependency", target=extension_target,
                         targetProxy=proxy)
        embed_file = add("embed extension", f"{extension.name}.appex in Embed Foundation Extensions", "PBXBuildFile",
                         fileRef=extension_product, settings={"ATTRIBUTES": ["RemoveHeadersOnCopy"]})
        embed = add("embed", "Embed Foundation Extensions", "PBXCopyFilesBuildPhase", buildActionMask="2147483647",
                    dstPath="", dstSubfolderSpec="13", files=[embed_file], name="Embed Foundation Extensions",
                    runOnlyForDeploymentPostprocessing="0")
        embedding = {"extra_phases": [embed], "dependencies": [dependency]}
    targets.insert(0, target(app, app_product, APP_KIND, dict(
        signing, LD_RUNPATH_SEARCH_PATHS=["$(inherited)", "@executable_path/Frameworks"]), **embedding))

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
    root_id = sample.identifier("project")
    objects[root_id] = dict(
        isa="PBXProject",
        attributes={"BuildIndependentTargetsInParallel": "1", "LastSwiftUpdateCheck": "1600",
                    "LastUpgradeCheck": "1600"},
        buildConfigurationList=configurations("project", project_settings), developmentRegion="en",
        hasScannedForEncodings="0", knownRegions=["en", "Base"], mainGroup=main_group,
        minimizedProjectReferenceProxies="1", packageReferences=[package], preferredProjectObjectVersion="77",
        productRefGroup=products_group, projectDirPath="", projectRoot="", targets=targets)
    names[root_id] = 'Project object'
    names[objects[root_id]["buildConfigurationList"]] = f'Build configuration list for PBXProject "{sample.name}"'
    for spec, ident in zip(sample.targets, targets):
        names[objects[ident]["buildConfigurationList"]] = f'Build configuration list for PBXNativeTarget "{spec.name}"'

    lines = ["// !$*UTF8*$!", "{", "\tarchiveVersion = 1;", "\tclasses = {", "\t};", "\tobjectVersion = 77;",
             "\tobjects = {"]
    for isa in sorted({item["isa"] for item in objects.values()}):
        lines.append("")
        lines.append(f"/* Begin {isa} section */")
        for ident in sorted(ident for ident, item in objects.items() if item["isa"] == isa):
            lines.append(f"\t\t{ident} /* {names[ident]} */ = {render(objects[ident], names, 2)};")
        lines.append(f"/* End {isa} section */")
    lines += ["\t};", f"\trootObject = {root_id} /* Project object */;", "}", ""]
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


def validate(text, root, sample):
    """The problems of the project text, as an Xcode build of the sample would meet them."""
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
    folder = os.path.join(root, sample.folder)
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
            problems.append(f"{path}: in the project, not in {sample.folder}")

    targets = {objects[ident]["name"]: objects[ident] for ident in root_object.get("targets", [])}
    kinds = {target.name: APP_KIND if target is sample.app else EXTENSION_KIND for target in sample.targets}
    missing = [name for name in kinds if name not in targets]
    if missing:
        return problems + [f"no target {name}" for name in missing]
    problems += [f"target {name}, which {sample.folder} does not have" for name in targets if name not in kinds]
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

    wanted = expected_sources(sample_files(root, sample), sample)
    xcconfig = {}
    base = objects[root_object["buildConfigurationList"]]
    for configuration_id in base["buildConfigurations"]:
        reference = objects[configuration_id].get("baseConfigurationReference")
        if reference in paths:
            xcconfig = xcconfig_settings(os.path.join(folder, paths[reference]))
    if not xcconfig:
        problems.append("the project's configurations have no base .xcconfig")

    scheme, app_group = code_names(root, sample, "scheme"), code_names(root, sample, "app_group")
    bundle_ids = {}
    for spec in sample.targets:
        name, target = spec.name, targets[spec.name]
        phases = [objects[ident] for ident in target.get("buildPhases", [])]
        sources = [paths.get(objects[build].get("fileRef"), "?") for phase in phases
                   if phase["isa"] == "PBXSourcesBuildPhase" for build in phase.get("files", [])]
        if sorted(sources) != sorted(wanted[name]):
            problems.append(f"target {name} compiles {sorted(sources)}, not what Scripts/check-swiftui.sh type-checks, "
                            f"{sorted(wanted[name])} (Scripts/check-xcodeproj.sh --write)")
        dependencies = {objects[ident].get("productName"): ident for ident in target.get("packageProductDependencies", [])}
        for product in spec.products:
            if product not in dependencies:
                problems.append(f"target {name} does not depend on the package's {product}")
            elif objects[dependencies[product]].get("package") not in root_object.get("packageReferences", []):
                problems.append(f"target {name}'s {product} is not the local package's")
            if product not in declared:
                problems.append(f"{product} is no product of Package.swift")
        for product in sorted(imported_products(root, sample, wanted[name], declared) - set(dependencies)):
            problems.append(f"target {name}'s Swift files import {product}, which it does not link")
        linked = {objects[build].get("productRef") for phase in phases if phase["isa"] == "PBXFrameworksBuildPhase"
                  for build in phase.get("files", [])}
        for product, ident in dependencies.items():
            if ident not in linked:
                problems.append(f"target {name} does not link {product}")
        for configuration_id in objects[target["buildConfigurationList"]]["buildConfigurations"]:
            configuration = objects[configuration_id]
            settings = dict(xcconfig, **configuration.get("buildSettings", {}))
            label = f"{name} ({configuration.get('name')})"
            # Entitlements: what an App Group needs; without one a target may name none.
            needed = ("INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS") if app_group else ("INFOPLIST_FILE",)
            named = [key for key in ("INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS") if settings.get(key) or key in needed]
            for key in named:
                if not settings.get(key):
                    problems.append(f"{label}: no {key}")
                elif not os.path.isfile(os.path.join(folder, settings[key])):
                    problems.append(f"{label}: {key} {settings[key]} does not exist")
            bundle_ids[name] = expand(settings.get("PRODUCT_BUNDLE_IDENTIFIER", ""), settings)
            if not all(os.path.isfile(os.path.join(folder, settings.get(key) or "-")) for key in named):
                continue
            info = read_plist(os.path.join(folder, settings["INFOPLIST_FILE"]))
            if app_group:
                entitlements = read_plist(os.path.join(folder, settings["CODE_SIGN_ENTITLEMENTS"]))
                groups = [expand(group, settings)
                          for group in entitlements.get("com.apple.security.application-groups", [])]
                if app_group not in groups:
                    problems.append(f"{label}: the entitlements' App Groups {groups} do not hold {app_group}, "
                                    f"the group {sample.app_group[0]} names")
            if spec is sample.app:
                schemes = [scheme for kind in info.get("CFBundleURLTypes", []) for scheme in kind.get("CFBundleURLSchemes", [])]
                if scheme not in schemes:
                    problems.append(f"{label}: Info.plist registers the URL schemes {schemes}, not "
                                    f"'{scheme}', which {sample.scheme[0]} reads")
                if info.get("UIApplicationSceneManifest", {}).get("UIApplicationSupportsMultipleScenes") is not True:
                    problems.append(f"{label}: Info.plist does not support multiple scenes (the sample's windows)")
            else:
                point = info.get("NSExtension", {}).get("NSExtensionPointIdentifier")
                if point != "com.apple.share-services":
                    problems.append(f"{label}: Info.plist's extension point is {point}, not com.apple.share-services")
    if not sample.extension:
        return problems
    # The app builds and embeds the extension, whose bundle id lies inside the app's.
    app, extension = sample.app.name, sample.extension.name
    if not bundle_ids[extension].startswith(bundle_ids[app] + "."):
        problems.append(f"the extension's bundle id {bundle_ids[extension]} is not inside the app's {bundle_ids[app]}")
    extension_id = next(ident for ident in root_object["targets"] if objects[ident]["name"] == extension)
    if not any(objects[ident].get("target") == extension_id for ident in targets[app].get("dependencies", [])):
        problems.append(f"{app} does not depend on {extension}")
    embedded = [objects[build].get("fileRef") for ident in targets[app].get("buildPhases", [])
                if objects[ident]["isa"] == "PBXCopyFilesBuildPhase" and objects[ident].get("dstSubfolderSpec") == "13"
                for build in objects[ident].get("files", [])]
    if objects[extension_id].get("productReference") not in embedded:
        problems.append(f"{app} does not embed {extension}.appex among its extensions")
    return problems


# MARK: - Running

def without_target(text, name):
    """text with target `name` taken out of the project's list of targets (its object left)."""
    head, opening, tail = text.partition("targets = (")
    body, closing, rest = tail.partition(")")
    return head + opening + re.sub(rf"\n\t+[0-9A-F]{{24}} /\* {re.escape(name)} \*/,", "", body) + closing + rest


def self_test(root, sample):
    """Plants faults in the sample's project text and in scratch copies of its files: each must be
    found. Returns the failures and the names of the faults planted."""
    text = project(root, sample)
    if validate(text, root, sample):
        return [f"self-test: the project as written has problems: {validate(text, root, sample)}"], []
    failures = []
    last = sample.targets[-1]
    plants = {
        "a dangling reference": (lambda t: re.sub(r"\n\t\t[0-9A-F]{24} /\* [^*\n]+ in Sources \*/ = \{.*?\n\t\t\};",
                                                  "", t, count=1, flags=re.S), "which is no object"),
        f"no {last.name} target": (lambda t: without_target(t, last.name), f"no target {last.name}"),
        "a missing product": (lambda t: t.replace("productName = StateStoreSwiftUI;", "productName = StateStoreUI;"),
                              "does not depend on the package's StateStoreSwiftUI"),
        "not a property list": (lambda t: t.replace("objects = {", "objects = {{", 1), "not a property list"),
    }
    for name, (plant, expected) in plants.items():
        planted = plant(text)
        if planted == text:
            failures.append(f"self-test: {name}: the plant changed nothing")
        elif not any(expected in problem for problem in validate(planted, root, sample)):
            failures.append(f"self-test: {name} was not found ({validate(planted, root, sample)})")

    # Faults in the files: each in a scratch copy of the repository's sample, checked against the
    # project as written.
    def edit(path, old, new):
        def change(folder):
            with open(os.path.join(folder, path), encoding="utf-8") as file:
                content = file.read()
            if not re.search(old, content):
                raise ValueError(f"{path} has no {old!r} to change")
            with open(os.path.join(folder, path), "w", encoding="utf-8") as file:
                file.write(re.sub(old, new, content, count=1))
        return change

    def add_swift(folder):
        with open(os.path.join(folder, "Added.swift"), "w", encoding="utf-8") as file:
            file.write("struct Added {}\n")

    scheme = code_names(root, sample, "scheme")
    first_swift = expected_sources(sample_files(root, sample), sample)[sample.app.name][0]
    file_plants = {
        f"an Info.plist without the '{scheme}' scheme":
            (edit(sample.app.info_plist, f"<string>{re.escape(scheme)}</string>", "<string>letters</string>"),
             f"not '{scheme}'"),
        "an Info.plist with one scene":
            (edit(sample.app.info_plist, r"(<key>UIApplicationSupportsMultipleScenes</key>\s*)<true/>", r"\1<false/>"),
             "does not support multiple scenes"),
        f"a missing {last.info_plist}":
            (lambda folder: os.remove(os.path.join(folder, last.info_plist)),
             f"INFOPLIST_FILE {last.info_plist} does not exist"),
        "a Swift file the project does not compile": (add_swift, f"target {sample.app.name} compiles"),
        "an import of a product not linked":
            (edit(first_swift, r"import StateStoreHost\n", "import StateStoreHost\nimport StateStore\n"),
             "import StateStore, which it does not link"),
    }
    if last.entitlements:
        file_plants[f"a missing {last.entitlements}"] = (
            lambda folder: os.remove(os.path.join(folder, last.entitlements)),
            f"CODE_SIGN_ENTITLEMENTS {last.entitlements} does not exist")
    if sample.app_group:
        file_plants["an App Group the code does not name"] = (
            edit(sample.name + ".xcconfig", r"APP_GROUP = .*", "APP_GROUP = group.com.example.other"), "do not hold")
    for name, (plant, expected) in file_plants.items():
        with tempfile.TemporaryDirectory() as scratch:
            shutil.copy(os.path.join(root, "Package.swift"), scratch)
            shutil.copytree(os.path.join(root, sample.folder), os.path.join(scratch, sample.folder), symlinks=True)
            try:
                plant(os.path.join(scratch, sample.folder))
            except (OSError, ValueError) as error:
                failures.append(f"self-test: {name}: the plant could not be made ({error})")
                continue
            problems = validate(text, scratch, sample)
            if not any(expected in problem for problem in problems):
                failures.append(f"self-test: {name} was not found ({problems})")
    return failures, list(plants) + list(file_plants)


def check(root, sample, write):
    """The committed project (written first with write) against the files: its problems."""
    xcconfig = os.path.join(sample.folder, sample.name + ".xcconfig")
    if not os.path.isfile(os.path.join(root, xcconfig)):
        return [f"{xcconfig} does not exist: the project's settings (team, bundle id prefix) are read from it"]
    text = project(root, sample)
    if write:
        for path, content in ((sample.project, text), (sample.workspace, WORKSPACE)):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as file:
                file.write(content)
    problems = []
    try:
        with open(os.path.join(root, sample.project), encoding="utf-8") as file:
            committed = file.read()
    except FileNotFoundError:
        committed = ""
        problems.append(f"{sample.project} does not exist (Scripts/check-xcodeproj.sh --write)")
    if committed and committed != text:
        problems.append(f"{sample.project} is not what the sample's files make: a file added, removed or renamed, or "
                        "the project edited by hand (Scripts/check-xcodeproj.sh --write, then read the diff)")
    if committed:
        problems += [f"{sample.project}: {problem}" for problem in validate(committed, root, sample)]
    try:
        with open(os.path.join(root, sample.workspace), encoding="utf-8") as file:
            workspace = file.read()
    except FileNotFoundError:
        workspace = None
    if workspace != WORKSPACE:
        problems.append(f"{sample.workspace} is {'missing' if workspace is None else 'not the one Xcode writes'} "
                        "(Scripts/check-xcodeproj.sh --write)")
    return problems


def summary(root, sample):
    sources = expected_sources(sample_files(root, sample), sample)
    targets = [f"{target.name} ({len(sources[target.name])} Swift files; {', '.join(target.products)})"
               for target in sample.targets]
    app_group = code_names(root, sample, "app_group")
    return (f"{sample.project}: {' and '.join(targets)}{', embedded' if sample.extension else ''}; the package ../..; "
            f"Info.plist with the '{code_names(root, sample, 'scheme')}' scheme; "
            + (f"App Group {app_group} in {'both' if sample.extension else 'its'} entitlements" if app_group
               else "no App Group, no entitlements"))


def main():
    arguments = sys.argv[1:]
    root = os.path.abspath(arguments[-1])
    status = 0
    for sample in SAMPLES:
        if "--self-test" in arguments:
            failures, planted = self_test(root, sample)
            for failure in failures:
                print(f"error: {sample.folder}: {failure}")
            if not failures:
                print(f"Xcode project check self-test, {sample.name}: each found — " + ", ".join(planted))
        else:
            failures = check(root, sample, "--write" in arguments)
            for failure in failures:
                print("error: " + failure)
            if not failures:
                print(summary(root, sample))
        status = status or (1 if failures else 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
