import Foundation

/// `herald backup FILE`: a consistent copy of the SQLite database, taken while the server runs.
///
/// `VACUUM INTO` copies the database as one read transaction sees it: every transaction committed
/// before it started, none after, whatever writers do meanwhile (a plain `cp` of a database in WAL
/// mode can copy half a transaction, or miss what is still in the WAL). The copy is then checked
/// with `PRAGMA integrity_check`. An existing FILE is never overwritten. On PostgreSQL the copy is
/// `pg_dump`'s job, and this says so (exit 2).
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
        guard !FileManager.default.fileExists(atPath: file) else {
            HeraldMain.printError("herald backup: \(file) already exists; choose a new file (nothing was written)")
            return 1
        }
        guard FileManager.default.fileExists(atPath: path) else {
            HeraldMain.printError("herald backup: there is no database at \(path)")
            return 1
        }
        let started = monotonicSeconds()
        do {
            let source = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 30_000, readOnly: true)
            try source.query("VACUUM INTO ?", [.text(file)])
            // The copy holds password hashes: readable by its owner only, like the data directory.
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
            let copy = try SQLiteConnection(path: file, readOnly: true)
            let integrity = try copy.query("PRAGMA integrity_check").first?.string(0) ?? ""
            guard integrity == "ok" else {
                HeraldMain.printError("herald backup: the copy at \(file) failed its integrity check: \(integrity)")
                return 1
            }
            let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            let seconds = monotonicSeconds() - started
            print(
                "backed up \(path) to \(file): \(String(format: "%.1f", Double(bytes) / 1_048_576)) MB in "
                    + "\(String(format: "%.2f", seconds)) s, integrity ok")
            return 0
        } catch {
            HeraldMain.printError("herald backup: \(error)")
            return 1
        }
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
