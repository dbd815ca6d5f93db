# bash completion for transit(1)                                    -*- shell-script -*-
# Installed as share/bash-completion/completions/transit; works without bash-completion too.
# Written by `transit completions bash` from transit's command table: do not edit by hand.

_transit_commands="scan decode replay dump verify watch cards history export report forget readers doctor plugins completions"

# The options each command takes (transit COMMAND --help).
_transit_options() {
    case $1 in
        scan) echo "--reader --dialect --config --wait --json --verbose --card --index --log --no-save --exchange-timeout --read-timeout --stations --below --personal --keys --help" ;;
        decode) echo "--config --read-timeout --stations --save --keys --help" ;;
        replay) echo "--config --json --verbose --read-timeout --stations --save --help" ;;
        dump) echo "--out --reader --dialect --wait --config --card --index --verbose --exchange-timeout --read-timeout --keys --help" ;;
        verify) echo "--reference --reader --dialect --wait --config --card --index --log --json --verbose --no-save --exchange-timeout --read-timeout --stations --keys --help" ;;
        watch) echo "--reader --dialect --config --json --verbose --exec --exec-timeout --no-save --exchange-timeout --read-timeout --stations --below --keys --help" ;;
        cards) echo "--json --name --help" ;;
        history) echo "--since --json --stations --help" ;;
        export) echo "--format --out --since --stations --help" ;;
        report) echo "--month --from --to --format --out --stations --help" ;;
        forget) echo "--yes --help" ;;
        readers) echo "--json --help" ;;
        doctor) echo "--config --json --help" ;;
        plugins) echo "--config --json --help" ;;
        completions) echo "--help" ;;
    esac
}

# Files (and folders to reach them), one a line, for the word $1.
_transit_files() {
    compopt -o filenames 2>/dev/null
    local IFS=$'\n'
    COMPREPLY=($(compgen -f -- "$1"))
}

# The values of option $1 of the command for the word $2; fails when $1 takes no value.
# A name, seconds, a date or an amount: nothing to offer.
_transit_values() {
    case ${COMP_WORDS[1]}:$1 in
        scan:--reader | scan:--wait | scan:--index | scan:--exchange-timeout | scan:--read-timeout | scan:--below | decode:--read-timeout | replay:--read-timeout | dump:--reader | dump:--wait | dump:--index | dump:--exchange-timeout | dump:--read-timeout | verify:--reader | verify:--wait | verify:--index | verify:--exchange-timeout | verify:--read-timeout | watch:--reader | watch:--exec-timeout | watch:--exchange-timeout | watch:--read-timeout | watch:--below | cards:--name | history:--since | export:--since | report:--month | report:--from | report:--to)
            : ;;
        scan:--dialect | dump:--dialect | verify:--dialect | watch:--dialect)
            COMPREPLY=($(compgen -W "pn532 acs-direct part3 bare-frame" -- "$2")) ;;
        scan:--config | scan:--card | scan:--log | scan:--stations | scan:--keys | decode:--config | decode:--stations | decode:--keys | replay:--config | replay:--stations | dump:--out | dump:--config | dump:--card | dump:--keys | verify:--reference | verify:--config | verify:--card | verify:--log | verify:--stations | verify:--keys | watch:--config | watch:--stations | watch:--keys | history:--stations | export:--out | export:--stations | report:--out | report:--stations | doctor:--config | plugins:--config)
            _transit_files "$2" ;;
        watch:--exec)
            COMPREPLY=($(compgen -c -- "$2" | sort -u)) ;;
        export:--format)
            COMPREPLY=($(compgen -W "csv json ledger" -- "$2")) ;;
        report:--format)
            COMPREPLY=($(compgen -W "text json sfcard ofx html" -- "$2")) ;;
        *) return 1 ;;
    esac
    return 0
}

_transit() {
    local cur prev command prefix=""
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=""
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}

    # --option=value: bash splits at "=" (COMP_WORDBREAKS), giving "--option" "=" "value".
    if [[ $cur == "=" && $prev == --* ]]; then
        cur=""
    elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    elif [[ $cur == --*=* ]]; then
        # "=" not in COMP_WORDBREAKS: complete the value and keep "--option=" in front of it.
        prev=${cur%%=*}
        prefix=$prev=
        cur=${cur#*=}
    fi
    ((COMP_CWORD > 1)) && _transit_values "$prev" "$cur" && { [[ -n $prefix ]] && COMPREPLY=("${COMPREPLY[@]/#/$prefix}"); return 0; }

    if ((COMP_CWORD <= 1)); then
        COMPREPLY=($(compgen -W "$_transit_commands --help --version" -- "$cur"))
        return 0
    fi
    command=${COMP_WORDS[1]}

    local options
    options=$(_transit_options "$command")
    [[ -z $options ]] && return 0
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        return 0
    fi
    # The operands; a card (history, export, report, forget) is a number or nickname: nothing to offer.
    case $command in
        decode) _transit_files "$cur" ;;
        replay) _transit_files "$cur" ;;
        completions) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")) ;;
    esac
    return 0
}

complete -F _transit transit
