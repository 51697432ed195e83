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

    @Test func connectionLimitsFromFlagsAndEnvironment() throws {
        let (_, defaults) = try CommandLineArguments.parse(["serve"], environment: [:])
        #expect(defaults.serverConfiguration.requestHeadDeadlineSeconds == 10)
        #expect(defaults.serverConfiguration.connectionsPerAddressLimit == 64)
        let environment = ["HERALD_HEAD_DEADLINE_SECONDS": "30", "HERALD_MAX_CONNECTIONS_PER_ADDRESS": "16"]
        let (_, fromEnvironment) = try CommandLineArguments.parse(["serve"], environment: environment)
        #expect(fromEnvironment.serverConfiguration.requestHeadDeadlineSeconds == 30)
        #expect(fromEnvironment.serverConfiguration.connectionsPerAddressLimit == 16)
        let (_, fromFlags) = try CommandLineArguments.parse(
            ["serve", "--head-deadline", "5", "--max-connections-per-address", "0"], environment: environment)
        #expect(fromFlags.serverConfiguration.requestHeadDeadlineSeconds == 5)
        #expect(fromFlags.serverConfiguration.connectionsPerAddressLimit == 0)
    }

    @Test func behindATrustedProxyThePerAddressLimitIsOffUnlessSet() throws {
        let proxy = ["HERALD_TRUST_PROXY": "1"]
        let (_, unset) = try CommandLineArguments.parse(["serve"], environment: proxy)
        #expect(unset.serverConfiguration.connectionsPerAddressLimit == 0, "every client shares the proxy's address")
        let (_, flag) = try CommandLineArguments.parse(
            ["serve", "--max-connections-per-address", "500"], environment: proxy)
        #expect(flag.serverConfiguration.connectionsPerAddressLimit == 500)
        let (_, variable) = try CommandLineArguments.parse(
            ["serve"], environment: proxy.merging(["HERALD_MAX_CONNECTIONS_PER_ADDRESS": "64"]) { $1 })
        #expect(variable.serverConfiguration.connectionsPerAddressLimit == 64)
    }

    @Test func importTakesFilesAndStdin() throws {
        let (command, configuration) = try CommandLineArguments.parse(
            ["import", "--data", "d", "a.xml", "-", "b.json"], environment: [:])
        #expect(command == .importFeeds(files: ["a.xml", "-", "b.json"]))
        #expect(configuration.dataDirectory == "d")
    }

    @Test(arguments: [
        ["serve", "--port", "70000"], ["serve", "--port"], ["serve", "--bogus"], ["import"], ["explode"],
        ["serve", "--threads", "0"], ["serve", "--head-deadline", "0"], ["serve", "--head-deadline", "soon"],
        ["serve", "--max-connections-per-address", "-1"],
    ])
    func badArgumentsAreUsageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try CommandLineArguments.parse(arguments, environment: [:]) }
    }
}
