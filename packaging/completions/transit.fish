# fish completion for transit(1). Installed as share/fish/vendor_completions.d/transit.fish.
# Written by `transit completions fish` from transit's command table: do not edit by hand.

set -l commands scan decode replay dump verify watch cards history export report forget readers doctor plugins completions

# Does the command line name COMMAND (one of $argv) as transit's command?
function __transit_command_is
    set -l words (commandline -opc)
    test (count $words) -ge 2; and contains -- $words[2] $argv
end

complete -c transit -f

# The command (first word only) and the global options.
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a scan -d 'Read the card on a reader (or a card file) and print it'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a decode -d 'Read card files, one JSON line each'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a replay -d 'Run the plugins of a log bundle against its recorded exchanges'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a dump -d 'Write everything public on the card into a card image'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a verify -d 'Read the card and compare it with a reference'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a watch -d 'Read every tap on every reader'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a cards -d 'List the cards kept in the history archive'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a history -d 'Print the whole timeline of a card from the history archive'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a export -d 'Write the timeline of a card as CSV, JSON or a ledger journal'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a report -d 'Report a period: totals, SFCard Viewer CSV, OFX or a page to print'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a forget -d 'Remove a card and all its reads from the history archive'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a readers -d 'List the readers (PC/SC and USB) and the card on each'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a doctor -d 'Check pcscd, readers, plugins.conf and each plugin'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a plugins -d 'List the plugins of plugins.conf in probe order'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -a completions -d 'Print the completion script of bash, zsh or fish'
complete -c transit -n "not __fish_seen_subcommand_from $commands" -l version -d 'Show the version'
complete -c transit -l help -d 'Show the help'

# Options, by the commands that take them.
complete -c transit -n '__transit_command_is scan dump verify' -l reader -x -d 'Use the first reader whose name contains NAME'
complete -c transit -n '__transit_command_is scan dump verify watch' -l dialect -x -a 'pn532 acs-direct part3 bare-frame' -d 'How FeliCa frames travel'
complete -c transit -n '__transit_command_is scan decode replay dump verify watch doctor plugins' -l config -r -F -d 'plugins.conf to use'
complete -c transit -n '__transit_command_is scan dump verify' -l wait -x -d 'Wait up to SECONDS for a reader and a card'
complete -c transit -n '__transit_command_is scan replay verify watch cards history readers doctor plugins' -l json -d 'Print JSON'
complete -c transit -n '__transit_command_is scan replay dump verify watch' -l verbose -d 'Log each plugin\'s steps on stderr'
complete -c transit -n '__transit_command_is scan dump verify' -l card -r -F -d 'Read a card file (image, Flipper, Metrodroid or FareBot export) instead of a reader'
complete -c transit -n '__transit_command_is scan dump verify' -l index -x -d 'The card of a --card file that holds several'
complete -c transit -n '__transit_command_is scan verify' -l log -r -F -d 'Write a JSON log bundle of the read'
complete -c transit -n '__transit_command_is scan verify watch' -l no-save -d 'Do not keep this read in the history archive'
complete -c transit -n '__transit_command_is scan dump verify watch' -l exchange-timeout -x -d 'The longest one exchange may take (default 5)'
complete -c transit -n '__transit_command_is scan decode replay dump verify watch' -l read-timeout -x -d 'The longest the whole read may take (default 20)'
complete -c transit -n '__transit_command_is scan decode replay verify watch history export report' -l stations -r -F -d 'A station table (CSV) for station names'
complete -c transit -n '__transit_command_is scan watch' -l below -x -d 'Flag a balance under AMOUNT, in minor units'
complete -c transit -n '__transit_command_is scan' -l personal -d 'Show the holder\'s personal data too'
complete -c transit -n '__transit_command_is scan decode dump verify watch' -l keys -r -F -d 'A MIFARE Classic key file (one 12-hex-digit key a line)'
complete -c transit -n '__transit_command_is decode replay' -l save -d 'Keep the read in the history archive'
complete -c transit -n '__transit_command_is dump' -l out -r -F -d 'Where to write the card image'
complete -c transit -n '__transit_command_is verify' -l reference -r -F -d 'The reference noted from a ticket machine'
complete -c transit -n '__transit_command_is watch' -l reader -x -d 'Watch readers whose name contains NAME'
complete -c transit -n '__transit_command_is watch' -l exec -x -a '(__fish_complete_command)' -d 'Run CMD for each tap, its JSON line on stdin'
complete -c transit -n '__transit_command_is watch' -l exec-timeout -x -d 'End CMD past SECONDS (default 30)'
complete -c transit -n '__transit_command_is cards' -l name -x -d 'Call CARD NICKNAME'
complete -c transit -n '__transit_command_is history export' -l since -x -d 'Records from that day on'
complete -c transit -n '__transit_command_is export' -l format -x -a 'csv json ledger' -d 'CSV (the default), JSON or a ledger journal'
complete -c transit -n '__transit_command_is export report' -l out -r -F -d 'Write to FILE instead of stdout'
complete -c transit -n '__transit_command_is report' -l month -x -d 'The period: a month'
complete -c transit -n '__transit_command_is report' -l from -x -d 'The period\'s first day, with --to'
complete -c transit -n '__transit_command_is report' -l to -x -d 'The period\'s last day, with --from'
complete -c transit -n '__transit_command_is report' -l format -x -a 'text json sfcard ofx html' -d 'What to write: text (the default), JSON, SFCard Viewer CSV, OFX or HTML'
complete -c transit -n '__transit_command_is forget' -l yes -d 'Remove the one card whose number begins with CARD'

# Operands: files, a shell's name; a card (history, export, report, forget) is a number or
# nickname (transit cards), nothing to offer.
complete -c transit -n '__transit_command_is decode replay' -F
complete -c transit -n '__transit_command_is completions' -a 'bash zsh fish'
