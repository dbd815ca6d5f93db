import Foundation

exit(TransitCommand().run(Array(CommandLine.arguments.dropFirst())))
