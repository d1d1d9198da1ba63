# bash completion for askhost
_askhost() {
    local cur prev words cword
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    local subcommands="mcp hook attach hosts status jump answer questions history"
    local options="--stdio --tui --print --profile --answers --timeout --pending-file --session --journal-sync --adapter --allow-tools --prompt --on-question --help --version"
    # After --, the agent's own command line: complete commands and files.
    local i
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ "${COMP_WORDS[i]}" == "--" ]]; then
            if ((i + 1 == COMP_CWORD)); then COMPREPLY=($(compgen -c -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
            return
        fi
    done
    case "$prev" in
        --profile) COMPREPLY=($(compgen -W "strict lenient" -- "$cur")); return ;;
        --adapter) COMPREPLY=($(compgen -W "auto native mcp claude pi acp" -- "$cur")); return ;;
        --journal-sync) COMPREPLY=($(compgen -W "deferred always" -- "$cur")); return ;;
        --pending-file | --file | --settings) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "$subcommands $options" -- "$cur"))
        return
    fi
    case "${COMP_WORDS[1]}" in
        mcp) COMPREPLY=($(compgen -W "--print --pending-file --progress-interval --help" -- "$cur")) ;;
        hook) COMPREPLY=($(compgen -W "install --project --settings --help" -- "$cur")) ;;
        attach) COMPREPLY=($(compgen -W "--next --popup --help" -- "$cur")) ;;
        hosts) COMPREPLY=($(compgen -W "--json --help" -- "$cur")) ;;
        status) COMPREPLY=($(compgen -W "--tmux --json --help" -- "$cur")) ;;
        jump) COMPREPLY=($(compgen -W "--help" -- "$cur")) ;;
        questions) COMPREPLY=($(compgen -W "show clear --json --pending-file --help" -- "$cur")) ;;
        history) COMPREPLY=($(compgen -W "--session --json --summary --list --help" -- "$cur")) ;;
        answer) COMPREPLY=($(compgen -W "--file --text --edit --pending-file --help" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "$options" -- "$cur")) ;;
    esac
}
complete -F _askhost askhost
