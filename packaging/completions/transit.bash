# bash completion for transit(1)                                    -*- shell-script -*-
# Installed as share/bash-completion/completions/transit; works without bash-completion too.

_transit_commands="scan decode replay dump verify watch cards history export report forget readers doctor plugins"
_transit_dialects="pn532 acs-direct part3 bare-frame"
_transit_formats="csv json ledger"
_transit_report_formats="text json sfcard ofx html"

# The options each command takes (transit COMMAND --help).
_transit_options() {
    case $1 in
        scan)    echo "--reader --dialect --config --wait --json --verbose --card --index --log --no-save --exchange-timeout --read-timeout --stations --below --personal --help" ;;
        decode)  echo "--config --read-timeout --stations --save --help" ;;
        replay)  echo "--config --json --verbose --read-timeout --stations --save --help" ;;
        dump)    echo "--out --reader --dialect --wait --config --card --index --verbose --exchange-timeout --read-timeout --help" ;;
        verify)  echo "--reference --reader --dialect --wait --no-save --config --card --index --log --json --verbose --exchange-timeout --read-timeout --stations --help" ;;
        watch)   echo "--reader --dialect --config --json --exec --exec-timeout --verbose --exchange-timeout --read-timeout --stations --no-save --below --help" ;;
        cards)   echo "--json --name --help" ;;
        history) echo "--since --json --stations --help" ;;
        export)  echo "--format --out --since --stations --help" ;;
        report)  echo "--month --from --to --format --out --stations --help" ;;
        forget)  echo "--yes --help" ;;
        readers) echo "--json --help" ;;
        doctor)  echo "--config --json --help" ;;
        plugins) echo "--config --json --help" ;;
    esac
}

# Files (and folders to reach them), one a line, for the word $1.
_transit_files() {
    compopt -o filenames 2>/dev/null
    local IFS=$'\n'
    COMPREPLY=($(compgen -f -- "$1"))
}

# The values of option $1 for the word $2; fails when $1 takes no value.
_transit_values() {
    case $1 in
        --dialect) COMPREPLY=($(compgen -W "$_transit_dialects" -- "$2")) ;;
        --format)
            # export: csv, json or ledger; report: its five formats.
            local formats=$_transit_formats
            [[ ${COMP_WORDS[1]} == report ]] && formats=$_transit_report_formats
            COMPREPLY=($(compgen -W "$formats" -- "$2")) ;;
        --config | --card | --log | --out | --reference | --stations) _transit_files "$2" ;;
        --exec) COMPREPLY=($(compgen -c -- "$2" | sort -u)) ;;
        --reader | --wait | --exchange-timeout | --read-timeout | --exec-timeout | --since | --month | --from | --to | --below | --name) ;; # a name, seconds, a date or an amount: nothing to offer
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
    _transit_values "$prev" "$cur" && { [[ -n $prefix ]] && COMPREPLY=("${COMPREPLY[@]/#/$prefix}"); return 0; }

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
    elif [[ $command == decode || $command == replay ]]; then
        # decode FILE..., replay LOG
        _transit_files "$cur"
    fi
    # history [CARD], export [CARD], report [CARD], forget CARD: a card's number or nickname (transit cards), nothing to offer.
    return 0
}

complete -F _transit transit
