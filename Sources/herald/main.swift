import Foundation
import Herald

exit(
    HeraldMain.run(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
