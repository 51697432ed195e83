import Foundation
import HTTP

/// The command line's entry point: `herald serve`, `herald import`.
public enum HeraldMain {
    /// Runs the command and returns the process exit status.
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        let command: Command
        let configuration: Configuration
        do {
            (command, configuration) = try CommandLineArguments.parse(arguments, environment: environment)
        } catch {
            printError("herald: \(error)\n\n\(CommandLineArguments.usage)")
            return 2
        }
        let log =
            configuration.logFormat == .json
            ? Logger(minimumLevel: configuration.logLevel, fieldSink: Logger.jsonStandardError)
            : Logger(minimumLevel: configuration.logLevel)
        switch command {
        case .help:
            print(CommandLineArguments.usage)
            return 0
        case .serve:
            return serve(configuration, log: log, environment: environment)
        case .importFeeds(let files):
            return FeedImportCommand.run(files: files, configuration: configuration)
        case .users(let words):
            return UsersCommand.run(words, configuration: configuration)
        case .comments(let words):
            return CommentsCommand.run(words, configuration: configuration)
        case .backup(let file):
            return BackupCommand.run(to: file, configuration: configuration)
        case .version:
            print(Version.description)
            return 0
        }
    }

    /// Serves until SIGINT or SIGTERM, then drains requests in flight and exits 0.
    static func serve(_ configuration: Configuration, log: Logger, environment: [String: String]) -> Int32 {
        if let problem = SiteAddress.serveProblem(configuration) {
            printError("herald serve: \(problem)")
            return 2
        }
        // Before any thread exists, so that every thread inherits the blocked signals.
        Signals.prepare()
        let app: HeraldApp
        let server: HTTPServer
        var metricsServer: HTTPServer?
        do {
            app = try HeraldApp(configuration: configuration, log: log)
            server = HTTPServer(configuration: configuration.serverConfiguration, responder: app.responder, log: log)
            try server.start()
            app.site.listening(on: server.port)
            app.replyDigests?.start(every: .seconds(configuration.replyMailCheckSeconds))
            if let port = configuration.metricsPort, let metrics = app.metrics {
                var listener = configuration.serverConfiguration
                listener.port = port
                let metricsListener = HTTPServer(
                    configuration: listener, responder: MetricsResponder(metrics: metrics), log: log)
                try metricsListener.start()
                metricsServer = metricsListener
            }
        } catch {
            printError("herald: cannot start: \(error)")
            return 1
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        // Unbuffered, so a parent process reading our stdout sees the line at once.
        FileHandle.standardOutput.write(Data("listening on http://\(host):\(server.port)\n".utf8))
        if let metricsServer {
            FileHandle.standardOutput.write(Data("metrics on http://\(host):\(metricsServer.port)/metrics\n".utf8))
        }
        SystemdNotify.send("READY=1\nSTATUS=serving on port \(server.port)", environment: environment)

        let signal = Signals.waitForTermination()
        log.info("received signal \(signal): finishing requests in flight")
        SystemdNotify.send("STOPPING=1", environment: environment)
        server.shutdown()
        metricsServer?.shutdown()
        // No new digests once stopping; a round in progress finishes and queues its mail.
        app.replyDigests?.stop()
        // Mail already queued (a reset link) gets its last try before the process goes.
        _ = app.mailer?.drain(timeout: .seconds(10))
        app.database.close()
        log.info("stopped")
        return 0
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
