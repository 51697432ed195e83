import Testing

@testable import Herald

@Suite struct CommandLineTests {
    @Test func serveFlags() throws {
        let (command, configuration) = try CommandLineArguments.parse(
            ["serve", "--host", "0.0.0.0", "--port", "0", "--data", "/tmp/x", "--dev", "--no-demo"], environment: [:])
        #expect(command == .serve)
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.port == 0)
        #expect(configuration.dataDirectory == "/tmp/x")
        #expect(configuration.developmentMode)
        #expect(!configuration.loadDemoContent)
    }

    @Test func defaultsMatchTheSpec() throws {
        let (_, configuration) = try CommandLineArguments.parse(["serve"], environment: [:])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.dataDirectory == "./data")
        #expect(configuration.loadDemoContent)
    }

    @Test func flagsWinOverEnvironment() throws {
        let (_, configuration) = try CommandLineArguments.parse(
            ["serve", "--port", "9000"], environment: ["HERALD_PORT": "7000", "HERALD_DATA": "/srv/herald"])
        #expect(configuration.port == 9000)
        #expect(configuration.dataDirectory == "/srv/herald")
    }

    @Test func importTakesFilesAndStdin() throws {
        let (command, configuration) = try CommandLineArguments.parse(
            ["import", "--data", "d", "a.xml", "-", "b.json"], environment: [:])
        #expect(command == .importFeeds(files: ["a.xml", "-", "b.json"]))
        #expect(configuration.dataDirectory == "d")
    }

    @Test(arguments: [
        ["serve", "--port", "70000"], ["serve", "--port"], ["serve", "--bogus"], ["import"], ["explode"],
        ["serve", "--threads", "0"],
    ])
    func badArgumentsAreUsageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try CommandLineArguments.parse(arguments, environment: [:]) }
    }
}
