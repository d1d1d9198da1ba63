# bash completion for askhost.
# Made by `./dev completions` from the command table (askhost --dump-options): change the
# table, not this file; `lint cli generated` fails while it is stale.
_askhost() {
    local cur prev
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    local subcommands="answer attach codex-hook gemini-hook history hook hosts jump mcp opencode questions status web"
    local options="--stdio --tui --print --profile --answers --timeout --pending-file --session --journal-sync --adapter --allow-tools --on-question --prompt --version --help"
    # After --, the agent's own command line: complete commands and files.
    local i
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ "${COMP_WORDS[i]}" == "--" ]]; then
            if ((i + 1 == COMP_CWORD)); then mapfile -t COMPREPLY < <(compgen -c -- "$cur"); else mapfile -t COMPREPLY < <(compgen -f -- "$cur"); fi
            return
        fi
    done
    case "$prev" in
        --profile) mapfile -t COMPREPLY < <(compgen -W "strict lenient" -- "$cur"); return ;;
        --journal-sync) mapfile -t COMPREPLY < <(compgen -W "deferred always" -- "$cur"); return ;;
        --adapter) mapfile -t COMPREPLY < <(compgen -W "auto native acp mcp claude pi opencode" -- "$cur"); return ;;
        --pending-file | --file | --hooks | --settings | --tls-cert | --tls-key) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
        --dir) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
    esac
    if ((COMP_CWORD == 1)); then
        mapfile -t COMPREPLY < <(compgen -W "$subcommands $options" -- "$cur")
        return
    fi
    case "${COMP_WORDS[1]}" in
        answer) mapfile -t COMPREPLY < <(compgen -W "--file --text --edit --pending-file --help" -- "$cur") ;;
        attach) mapfile -t COMPREPLY < <(compgen -W "--next --popup --help" -- "$cur") ;;
        codex-hook) mapfile -t COMPREPLY < <(compgen -W "install --project --hooks --remove --help" -- "$cur") ;;
        gemini-hook) mapfile -t COMPREPLY < <(compgen -W "install --project --settings --remove --help" -- "$cur") ;;
        history) mapfile -t COMPREPLY < <(compgen -W "--session --json --summary --list --help" -- "$cur") ;;
        hook) mapfile -t COMPREPLY < <(compgen -W "install --project --settings --help" -- "$cur") ;;
        hosts) mapfile -t COMPREPLY < <(compgen -W "--json --help" -- "$cur") ;;
        jump) mapfile -t COMPREPLY < <(compgen -W "--help" -- "$cur") ;;
        mcp) mapfile -t COMPREPLY < <(compgen -W "--print --pending-file --expire-after --progress-interval --help" -- "$cur") ;;
        opencode) mapfile -t COMPREPLY < <(compgen -W "install ask permission summary --project --dir --remove --help" -- "$cur") ;;
        questions) mapfile -t COMPREPLY < <(compgen -W "show clear --json --pending-file --help" -- "$cur") ;;
        status) mapfile -t COMPREPLY < <(compgen -W "--tmux --json --help" -- "$cur") ;;
        web) mapfile -t COMPREPLY < <(compgen -W "--listen --public-name --tls-cert --tls-key --behind-proxy --on-question --url --sign-in-link --new-token --help" -- "$cur") ;;
        *) mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur") ;;
    esac
}
complete -F _askhost askhost
