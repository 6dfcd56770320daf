#!/usr/bin/env bash
# Installs statectl with its shell completions and its manual page under a prefix, and
# uninstalls exactly what it installed.
#
#   Scripts/install.sh [PREFIX]              build in release, then install (PREFIX: /usr/local)
#   Scripts/install.sh --uninstall [PREFIX]  remove what the install under PREFIX recorded
#
# Installs, under PREFIX:
#   bin/statectl
#   share/bash-completion/completions/statectl
#   share/zsh/site-functions/_statectl
#   share/fish/vendor_completions.d/statectl.fish
#   share/man/man1/statectl.1
# and records each of those files, and each folder it had to make, in
# share/statectl/install-manifest. --uninstall removes the files the manifest names, the
# manifest, and then the folders it names that are empty by then: nothing else.
#
# A file already at one of those paths that no earlier install recorded is never overwritten:
# the install stops (exit 73) before it writes anything. Installing again over an earlier
# install replaces its files. Exit status: 0 done, 1 the build or a copy failed, 64 a bad
# command line, 65 a manifest that names a path outside the prefix, 66 nothing recorded to
# uninstall, 73 a file in the way, or no folder to make PREFIX in.
set -euo pipefail

usage() { # the comment at the top of this file
    awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
}

fail() { # STATUS MESSAGE
    echo "install.sh: $2" >&2
    exit "$1"
}

uninstall=
prefix=
for argument in "$@"; do
    case $argument in
    --uninstall) uninstall=1 ;;
    -h | --help)
        usage
        exit 0
        ;;
    -*) fail 64 "unknown option '$argument' (see Scripts/install.sh --help)" ;;
    *)
        [ -z "$prefix" ] || fail 64 "one PREFIX at most, not '$prefix' and '$argument'"
        prefix=$argument
        ;;
    esac
done
prefix=${prefix:-/usr/local}
case $prefix in
/*) ;;
*) prefix=$PWD/$prefix ;;
esac
prefix=${prefix%/}
prefix=${prefix:-/}

manifest_name=share/statectl/install-manifest
manifest=$prefix/$manifest_name
files=(
    bin/statectl
    share/bash-completion/completions/statectl
    share/zsh/site-functions/_statectl
    share/fish/vendor_completions.d/statectl.fish
    share/man/man1/statectl.1
)

# Reads the manifest into recorded_files and recorded_folders (paths relative to the prefix),
# refusing one that names a path outside it.
read_manifest() {
    recorded_files=()
    recorded_folders=()
    [ -f "$manifest" ] || return 0
    local kind path
    while IFS=' ' read -r kind path; do
        case $kind in
        '' | '#'*) continue ;;
        file | folder) ;;
        *) fail 65 "$manifest: unknown line '$kind $path'; nothing removed" ;;
        esac
        case /$path/ in
        //* | */../* | *//*) fail 65 "$manifest names '$path', which is not a path inside $prefix; nothing removed" ;;
        esac
        if [ "$kind" = file ]; then recorded_files+=("$path"); else recorded_folders+=("$path"); fi
    done <"$manifest"
}

recorded() { # PATH: whether the manifest names the file
    local item
    for item in "${recorded_files[@]+"${recorded_files[@]}"}"; do
        [ "$item" = "$1" ] && return 0
    done
    return 1
}

if [ -n "$uninstall" ]; then
    [ -f "$manifest" ] || fail 66 "nothing to uninstall: no $manifest (the install records what it installs there)"
    read_manifest
    for path in "${recorded_files[@]+"${recorded_files[@]}"}"; do
        if [ -d "$prefix/$path" ] && [ ! -L "$prefix/$path" ]; then
            echo "install.sh: $prefix/$path is a folder now; left alone" >&2
        elif [ -e "$prefix/$path" ] || [ -L "$prefix/$path" ]; then
            rm -f "$prefix/$path"
            echo "removed $prefix/$path"
        fi
    done
    rm -f "$manifest"
    # Innermost first: the manifest lists folders in the order they were made.
    for ((index = ${#recorded_folders[@]} - 1; index >= 0; index--)); do
        folder=$prefix/${recorded_folders[index]}
        folder=${folder%/.}
        if [ -d "$folder" ] && rmdir "$folder" 2>/dev/null; then
            echo "removed $folder/"
        elif [ -d "$folder" ]; then
            echo "install.sh: $folder/ is not empty; left alone" >&2
        fi
    done
    exit 0
fi

read_manifest
# The prefix may be new, but not the folder it goes in: the install makes nothing outside it.
[ -d "$(dirname "$prefix")" ] || fail 73 "$(dirname "$prefix") does not exist; make it first (nothing installed)"
for path in "${files[@]}" "$manifest_name"; do
    target=$prefix/$path
    if [ -d "$target" ] && [ ! -L "$target" ]; then
        fail 73 "$target is a folder; nothing installed"
    fi
    if { [ -e "$target" ] || [ -L "$target" ]; } && [ "$path" != "$manifest_name" ] && ! recorded "$path"; then
        fail 73 "$target exists and no install by this script recorded it; remove it or choose another PREFIX (nothing installed)"
    fi
done

cd "$(dirname "$0")/.."
echo "== swift build -c release --product statectl"
swift build -c release --product statectl || fail 1 "the build failed; nothing installed"
binary=$(swift build -c release --show-bin-path)/statectl

# Everything is made before anything is installed: a failure here installs nothing.
stage=$(mktemp -d "${TMPDIR:-/tmp}/statectl-install.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin"
cp "$binary" "$stage/bin/statectl"
"$binary" completion bash >"$stage/bash"
"$binary" completion zsh >"$stage/zsh"
"$binary" completion fish >"$stage/fish"
"$binary" help --man >"$stage/man"
sources=("$stage/bin/statectl" "$stage/bash" "$stage/zsh" "$stage/fish" "$stage/man")
modes=(0755 0644 0644 0644 0644)

# The folders, outermost first; each one made here is recorded, each one that was there is not.
made=("${recorded_folders[@]+"${recorded_folders[@]}"}")
make_folder() { # PATH relative to the prefix, or .
    local path=$1 folder=$prefix/$1 item
    [ "$path" = . ] && folder=$prefix
    [ -d "$folder" ] && return 0
    [ "$path" = . ] || make_folder "$(dirname "$path")"
    mkdir "$folder" || fail 1 "cannot make $folder"
    for item in "${made[@]+"${made[@]}"}"; do [ "$item" = "$path" ] && return 0; done
    made+=("$path")
}
for path in "${files[@]}" "$manifest_name"; do make_folder "$(dirname "$path")"; done

# The manifest first, naming every file: if a copy fails, --uninstall still finds them all.
{
    echo "# What Scripts/install.sh installed under $prefix; Scripts/install.sh --uninstall removes it."
    for path in "${made[@]+"${made[@]}"}"; do echo "folder $path"; done
    for path in "${files[@]}"; do echo "file $path"; done
} >"$manifest.new"
mv -f "$manifest.new" "$manifest"

for index in "${!files[@]}"; do
    target=$prefix/${files[index]}
    # A new file moved into place: a running statectl keeps its own copy.
    install -m "${modes[index]}" "${sources[index]}" "$target.new.$$" || fail 1 "cannot write $target.new.$$"
    mv -f "$target.new.$$" "$target" || fail 1 "cannot move $target into place"
    echo "installed $target"
done
echo "recorded in $manifest; Scripts/install.sh --uninstall $prefix removes it all"
