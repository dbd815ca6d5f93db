import Foundation
import TransitFiles
import TransitModel
import TransitTransport
import TransitEngine
import TransitWatch

// The language gettext chose, before a word is said or the plugin worker forked (it inherits the catalog).
L10n.start(catalogs: InstallLayout.catalogs())
// The USB readers' lines of the reader table, before a reader is looked up or the worker forked.
ReaderSources.addDriverLines()
// A worker that died must not take the host with it through a write to its pipe.
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
if let command = arguments.first, CommandTable.readingCommands.contains(command), PluginWorker.enabled {
    WorkerSpawn.forkEarly(verbose: arguments.contains("--verbose"))
}
// Ctrl-C, SIGTERM or a failed write ends the process at once: a USB reader it holds is given back first.
Termination.shared.onEnd { ReaderSources.giveBackAll() }
let code = TransitCommand().run(arguments)
fflush(StandardStream.output)
fflush(StandardStream.error)
// A reader call that never returned holds a libpcsclite lock an orderly exit could wait on.
if Abandonment.happened { _exit(code) }
exit(code)
