import Foundation

exit(SimulatorCommand.run(Array(CommandLine.arguments.dropFirst())))
