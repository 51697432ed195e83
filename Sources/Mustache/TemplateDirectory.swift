import Foundation

/// The file-system side of ``TemplateLibrary``: finding, reading and fingerprinting
/// `*.mustache` files. Nothing here runs on the render path of a non-reloading library.
enum TemplateDirectory {
    static let fileExtension = ".mustache"

    struct File {
        /// The file name without extension, which partial and parent tags use.
        let name: String
        /// The directory joined with the file name, as error messages show it.
        let path: String
    }

    /// What "the file changed" means for reloading. Size is compared too so that an edit within
    /// one tick of a coarse file-system clock is still seen unless it keeps the size.
    struct Stamp: Equatable {
        let modified: Date?
        let size: Int64?
    }

    /// Only the directory itself is read, not subdirectories, sorted so that errors are
    /// reported in a stable order.
    static func files(in directory: String) throws(TemplateError) -> [File] {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw TemplateError(.unreadable("cannot list template directory"), path: directory)
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return entries.sorted().compactMap { entry in
            guard entry.hasSuffix(fileExtension), entry.count > fileExtension.count else { return nil }
            return File(name: String(entry.dropLast(fileExtension.count)), path: prefix + entry)
        }
    }

    static func compile(_ file: File) throws(TemplateError) -> Template {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw TemplateError(.unreadable("cannot read template file"), path: file.path)
        }
        return try Template(bytes: [UInt8](data), path: file.path)
    }

    static func stamp(of file: File) -> Stamp {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        return Stamp(
            modified: attributes?[.modificationDate] as? Date,
            size: (attributes?[.size] as? NSNumber)?.int64Value)
    }
}
