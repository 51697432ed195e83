import Foundation

/// `herald backup FILE`: a consistent copy of the SQLite database, taken while the server runs.
///
/// `VACUUM INTO` copies the database as one read transaction sees it: every transaction committed
/// before it started, none after, whatever writers do meanwhile (a plain `cp` of a database in WAL
/// mode can copy half a transaction, or miss what is still in the WAL). The copy is then checked
/// with `PRAGMA integrity_check`. On PostgreSQL the copy is `pg_dump`'s job, and this says so (exit 2).
///
/// The copy holds the password hashes, so FILE is made readable by its owner only before a byte
/// goes into it (`createPrivately`): SQLite, left to create it, would make it 0644 under the usual
/// umask for as long as the copy takes. An existing FILE (or a symbolic link there) is never
/// written to; a copy that fails is removed.
enum BackupCommand {
    static func run(to file: String, configuration: Configuration) -> Int32 {
        guard case .sqlite(let path) = configuration.databaseBackend else {
            HeraldMain.printError(
                """
                herald backup: this site uses PostgreSQL; back it up with pg_dump, for example
                  pg_dump --format=custom --file=herald.dump "$HERALD_DATABASE_URL"
                and restore with pg_restore --clean --dbname=… herald.dump (see README "Backups")
                """)
            return 2
        }
        guard FileManager.default.fileExists(atPath: path) else {
            HeraldMain.printError("herald backup: there is no database at \(path)")
            return 1
        }
        switch createPrivately(file) {
        case .created: break
        case .exists:
            HeraldMain.printError("herald backup: \(file) already exists; choose a new file (nothing was written)")
            return 1
        case .failed(let reason):
            HeraldMain.printError("herald backup: cannot create \(file): \(reason)")
            return 1
        }
        let started = monotonicSeconds()
        do {
            let source = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 30_000, readOnly: true)
            // Into the empty file made above (VACUUM INTO accepts an empty file), keeping its mode.
            try source.query("VACUUM INTO ?", [.text(file)])
            let copy = try SQLiteConnection(path: file, readOnly: true)
            let integrity = try copy.query("PRAGMA integrity_check").first?.string(0) ?? ""
            guard integrity == "ok" else {
                unlink(file)
                HeraldMain.printError(
                    "herald backup: the copy failed its integrity check, so it was removed: \(integrity)")
                return 1
            }
            let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            let seconds = monotonicSeconds() - started
            print(
                "backed up \(path) to \(file): \(String(format: "%.1f", Double(bytes) / 1_048_576)) MB in "
                    + "\(String(format: "%.2f", seconds)) s, integrity ok")
            return 0
        } catch {
            unlink(file)
            HeraldMain.printError("herald backup: \(error) (the unfinished copy was removed)")
            return 1
        }
    }

    enum Creation: Equatable {
        case created
        case exists
        case failed(String)
    }

    /// Creates `file` empty and readable and writable by its owner only, whatever the umask;
    /// never opens an existing file or follows a symbolic link (`O_EXCL`, `O_NOFOLLOW`).
    static func createPrivately(_ file: String) -> Creation {
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            return errno == EEXIST ? .exists : .failed(String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        // The umask may have taken bits away (0o600 & ~umask): put them back, exactly 0600.
        guard fchmod(descriptor, 0o600) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(file)
            return .failed(reason)
        }
        return .created
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
