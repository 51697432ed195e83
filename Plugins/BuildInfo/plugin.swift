import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` with the git commit the build is made from, so that
/// `herald --version` can say it. Runs before every build; the file is rewritten only when the
/// commit changed, so an unchanged checkout rebuilds nothing. Outside a git checkout (a source
/// tarball) the commit is "unknown".
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.pluginWorkDirectoryURL.appending(path: "generated")
        let output = directory.appending(path: "BuildInfo.swift")
        let script = """
            mkdir -p "$2"
            commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
            dirty=$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null | head -c 1)
            [ -n "$dirty" ] && commit="$commit+changes"
            printf '/// Made by Plugins/BuildInfo before each build.\\nenum BuildInfo {\\n    static let commit = "%s"\\n}\\n' "$commit" > "$3.new"
            if cmp -s "$3.new" "$3"; then rm -f "$3.new"; else mv "$3.new" "$3"; fi
            """
        return [
            .prebuildCommand(
                displayName: "Recording the git commit",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, directory.path, output.path],
                outputFilesDirectory: directory)
        ]
    }
}
