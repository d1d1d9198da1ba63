# fish completion for askhost (installed as share/fish/vendor_completions.d/askhost.fish).

set -l subs mcp codex-hook gemini-hook hook opencode attach hosts status jump web answer questions history

function __askhost_no_sub
    set -l words (commandline -opc)
    for w in $words[2..-1]
        switch $w
            case -- '--'
                return 1
            case '-*'
                continue
            case '*'
                return 1
        end
    end
    return 0
end

function __askhost_after_dashdash
    contains -- -- (commandline -opc)
end

complete -c askhost -f
complete -c askhost -n __askhost_no_sub -a mcp -d 'MCP stdio server with the ask_user_question tool'
complete -c askhost -n __askhost_no_sub -a codex-hook -d "Codex hooks: its own questions asked in askhost, answers kept through compaction"
complete -c askhost -n __askhost_no_sub -a gemini-hook -d "Gemini CLI hooks: its own questions asked in askhost, answers kept through compression"
complete -c askhost -n __askhost_no_sub -a hook -d 'Claude Code hook: its questions and permissions'
complete -c askhost -n __askhost_no_sub -a opencode -d "OpenCode's own questions asked in the host of its workspace"
complete -c askhost -n __askhost_no_sub -a attach -d "answer a running host's questions here"
complete -c askhost -n __askhost_no_sub -a hosts -d 'the running askhost hosts'
complete -c askhost -n __askhost_no_sub -a status -d 'how many questions wait, over every host'
complete -c askhost -n __askhost_no_sub -a jump -d 'switch tmux to the pane of the agent that asks'
complete -c askhost -n __askhost_no_sub -a web -d 'every waiting question on one page, for a browser or a phone'
complete -c askhost -n __askhost_no_sub -a answer -d 'answer the pending-questions file'
complete -c askhost -n __askhost_no_sub -a questions -d 'the pending questions'
complete -c askhost -n __askhost_no_sub -a history -d 'what was asked and answered'

# Running an agent: askhost [MODE] [OPTIONS] -- AGENT [ARGS...]
set -l run "__askhost_no_sub; and not __askhost_after_dashdash"
complete -c askhost -n $run -l stdio -d 'speak the editor protocol on stdio'
complete -c askhost -n $run -l tui -d 'ask in a dialog on the terminal'
complete -c askhost -n $run -l print -d 'write the pending-questions file'
complete -c askhost -n $run -l profile -x -a 'strict lenient' -d 'question rules'
complete -c askhost -n $run -l answers -x -d 'pre-answer the next question set (JSON)'
complete -c askhost -n $run -l timeout -x -d 'give up waiting after SECONDS'
complete -c askhost -n $run -l pending-file -r -F -d 'pending-questions file'
complete -c askhost -n $run -l session -x -d 'name or continue a session journal'
complete -c askhost -n $run -l journal-sync -x -a 'deferred always' -d 'when journal records reach the disk'
complete -c askhost -n $run -l adapter -x -a 'auto native mcp claude pi acp opencode' -d 'the agent adapter'
complete -c askhost -n $run -l allow-tools -x -d 'tools the agent may use without asking'
complete -c askhost -n $run -l prompt -x -d 'the first user message'
complete -c askhost -n $run -l on-question -x -d 'run a command when a question waits'
complete -c askhost -n $run -s h -l help -d 'show the help'
complete -c askhost -n $run -s V -l version -d 'show the version'
complete -c askhost -n __askhost_after_dashdash -F -a '(__fish_complete_subcommand --fcs-skip=1)'

complete -c askhost -n '__fish_seen_subcommand_from mcp' -l print -d 'no waiting: the pending-questions file'
complete -c askhost -n '__fish_seen_subcommand_from mcp' -l pending-file -r -F
complete -c askhost -n '__fish_seen_subcommand_from mcp' -l progress-interval -x
complete -c askhost -n '__fish_seen_subcommand_from mcp' -l expire-after -x
complete -c askhost -n '__fish_seen_subcommand_from codex-hook' -a install -d "add the hook to Codex's hooks.json"
complete -c askhost -n '__fish_seen_subcommand_from codex-hook' -l project -d "the project's .codex/hooks.json"
complete -c askhost -n '__fish_seen_subcommand_from codex-hook' -l hooks -r -F
complete -c askhost -n '__fish_seen_subcommand_from codex-hook' -l remove -d "take askhost's hooks out instead"
complete -c askhost -n '__fish_seen_subcommand_from gemini-hook' -a install -d "add the hook to Gemini CLI's settings"
complete -c askhost -n '__fish_seen_subcommand_from gemini-hook' -l project -d "the project's .gemini/settings.json"
complete -c askhost -n '__fish_seen_subcommand_from gemini-hook' -l settings -r -F
complete -c askhost -n '__fish_seen_subcommand_from gemini-hook' -l remove -d "take askhost's hooks out instead"
complete -c askhost -n '__fish_seen_subcommand_from hook' -a install -d "add the hook to Claude Code's settings"
complete -c askhost -n '__fish_seen_subcommand_from hook' -l project -d "the project's .claude/settings.json"
complete -c askhost -n '__fish_seen_subcommand_from hook' -l settings -r -F
complete -c askhost -n '__fish_seen_subcommand_from opencode' -a install -d "askhost's plugin into OpenCode's config"
complete -c askhost -n '__fish_seen_subcommand_from opencode' -a ask -d 'run by the plugin: the question on stdin'
complete -c askhost -n '__fish_seen_subcommand_from opencode' -a permission -d 'run by the plugin: a permission prompt on stdin'
complete -c askhost -n '__fish_seen_subcommand_from opencode' -a summary -d 'run by the plugin: the session at a compaction'
complete -c askhost -n '__fish_seen_subcommand_from opencode' -l project -d "the project's .opencode/plugin/"
complete -c askhost -n '__fish_seen_subcommand_from opencode' -l dir -r -F
complete -c askhost -n '__fish_seen_subcommand_from opencode' -l remove -d "take askhost's plugin out"
complete -c askhost -n '__fish_seen_subcommand_from attach' -l next -d 'the host whose question waited longest'
complete -c askhost -n '__fish_seen_subcommand_from attach' -l popup -d 'in a tmux popup'
complete -c askhost -n '__fish_seen_subcommand_from hosts' -l json
complete -c askhost -n '__fish_seen_subcommand_from web' -l listen -x -d 'ADDR:PORT to listen on'
complete -c askhost -n '__fish_seen_subcommand_from web' -l public-name -x -d 'a name the page is also reached by'
complete -c askhost -n '__fish_seen_subcommand_from web' -l tls-cert -r -F -d 'serve HTTPS with this certificate'
complete -c askhost -n '__fish_seen_subcommand_from web' -l tls-key -r -F -d "the certificate's key"
complete -c askhost -n '__fish_seen_subcommand_from web' -l behind-proxy -d 'plain HTTP for a proxy that does TLS'
complete -c askhost -n '__fish_seen_subcommand_from web' -l on-question -x -d 'run a command when a question waits'
complete -c askhost -n '__fish_seen_subcommand_from web' -l url -d 'print the URL of the running askhost web'
complete -c askhost -n '__fish_seen_subcommand_from web' -l sign-in-link -d 'a one-time link for a new device'
complete -c askhost -n '__fish_seen_subcommand_from web' -l new-token -d 'replace the token'
complete -c askhost -n '__fish_seen_subcommand_from status' -l tmux -d 'for the tmux status line'
complete -c askhost -n '__fish_seen_subcommand_from status' -l json
complete -c askhost -n '__fish_seen_subcommand_from answer' -s f -l file -r -F -d 'the answers from a JSON file'
complete -c askhost -n '__fish_seen_subcommand_from answer' -s t -l text -x -d 'your own words'
complete -c askhost -n '__fish_seen_subcommand_from answer' -s e -l edit -d 'edit a copy in $EDITOR'
complete -c askhost -n '__fish_seen_subcommand_from answer questions' -l pending-file -r -F
complete -c askhost -n '__fish_seen_subcommand_from questions' -a 'show clear'
complete -c askhost -n '__fish_seen_subcommand_from questions' -l json
complete -c askhost -n '__fish_seen_subcommand_from history' -l session -x
complete -c askhost -n '__fish_seen_subcommand_from history' -l json
complete -c askhost -n '__fish_seen_subcommand_from history' -l summary
complete -c askhost -n '__fish_seen_subcommand_from history' -l list
complete -c askhost -n "__fish_seen_subcommand_from $subs" -l help -d 'show the help'
