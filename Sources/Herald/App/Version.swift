/// What `herald --version` prints: the release and the git commit it was built from.
public enum Version {
    public static let release = "2.0.0"

    public static var description: String {
        "herald \(release) (commit \(BuildInfo.commit))"
    }
}
