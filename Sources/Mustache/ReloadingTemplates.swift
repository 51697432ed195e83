import Foundation

/// The development-mode template store: every lookup re-lists the directory and recompiles
/// the files whose stamp changed. A lock is acceptable here and only here; production
/// libraries hold a plain immutable dictionary instead.
final class ReloadingTemplates: @unchecked Sendable {
    // Guarded by `lock`: `templates` and `stamps`.
    private let lock = NSLock()
    private var templates: [String: Template] = [:]
    private var stamps: [String: TemplateDirectory.Stamp] = [:]

    private let directory: String
    private let validatesReferences: Bool

    init(directory: String, validatesReferences: Bool) throws(TemplateError) {
        self.directory = directory
        self.validatesReferences = validatesReferences
        _ = try current()
    }

    /// The templates as they are on disk now. A file that fails to compile makes this throw on
    /// every call until it is fixed, leaving the last good versions in place meanwhile.
    func current() throws(TemplateError) -> [String: Template] {
        lock.lock()
        defer { lock.unlock() }
        let files = try TemplateDirectory.files(in: directory)
        var next = templates
        var nextStamps = stamps
        var changed = false
        for file in files {
            let stamp = TemplateDirectory.stamp(of: file)
            guard stamps[file.name] != stamp || templates[file.name] == nil else { continue }
            next[file.name] = try TemplateDirectory.compile(file)
            nextStamps[file.name] = stamp
            changed = true
        }
        let present = Set(files.map(\.name))
        for name in templates.keys where !present.contains(name) {
            next[name] = nil
            nextStamps[name] = nil
            changed = true
        }
        if changed {
            if validatesReferences { try TemplateLibrary.validateReferences(in: next) }
            templates = next
            stamps = nextStamps
        }
        return templates
    }
}
