# fish completion for askhost (installed as share/fish/vendor_completions.d/askhost.fish).
# Made by `./dev completions` from the command table (askhost --dump-options): change the
# table, not this file; `lint cli generated` fails while it is stale.

set -l subs answer attach codex-hook gemini-hook history hook hosts jump mcp opencode questions status web

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
complete -c askhost -n __askhost_no_sub -a answer -d 'answer the pending-questions file'
complete -c askhost -n __askhost_no_sub -a attach -d 'answer a running host\'s questions in this terminal'
complete -c askhost -n __askhost_no_sub -a codex-hook -d 'Codex hooks: its own questions asked in askhost, the session\'s answers kept through compaction'
complete -c askhost -n __askhost_no_sub -a gemini-hook -d 'Gemini CLI hooks: its own questions asked in askhost, the session\'s answers kept through compression'
complete -c askhost -n __askhost_no_sub -a history -d 'what was asked and answered'
complete -c askhost -n __askhost_no_sub -a hook -d 'Claude Code hook: its questions and permissions asked in the host of its workspace'
complete -c askhost -n __askhost_no_sub -a hosts -d 'the running hosts and the one this directory uses'
complete -c askhost -n __askhost_no_sub -a jump -d 'tmux: go to the pane of the agent that asks'
complete -c askhost -n __askhost_no_sub -a mcp -d 'MCP stdio server with the ask_user_question tool'
complete -c askhost -n __askhost_no_sub -a opencode -d 'OpenCode\'s own questions asked in the host of its workspace'
complete -c askhost -n __askhost_no_sub -a questions -d 'the pending questions'
complete -c askhost -n __askhost_no_sub -a status -d 'how many questions wait, over every host'
complete -c askhost -n __askhost_no_sub -a web -d 'every waiting question on one page, for a browser or a phone'

# Running an agent: askhost [MODE] [OPTIONS] -- AGENT [ARGS...]
set -l run "__askhost_no_sub; and not __askhost_after_dashdash"
complete -c askhost -n $run -l stdio -d 'speak the editor protocol'
complete -c askhost -n $run -l tui -d 'ask in a dialog on the terminal'
complete -c askhost -n $run -l print -d 'write the pending-questions file and tell the agent to come back later'
complete -c askhost -n $run -l profile -x -a 'strict lenient' -d 'question rules'
complete -c askhost -n $run -l answers -x -d 'pre-answer the next question set'
complete -c askhost -n $run -l timeout -x -d 'give up waiting after SECONDS'
complete -c askhost -n $run -l pending-file -r -F -d 'pending-questions file'
complete -c askhost -n $run -l session -x -d 'name or continue a session journal'
complete -c askhost -n $run -l journal-sync -x -a 'deferred always' -d 'when journal records reach the disk'
complete -c askhost -n $run -l adapter -x -a 'auto native acp mcp claude pi opencode' -d 'the agent\'s adapter, or auto'
complete -c askhost -n $run -l allow-tools -x -d 'tools the agent may use without asking'
complete -c askhost -n $run -l on-question -x -d 'run CMD'
complete -c askhost -n $run -l prompt -x -d 'the first user message, for agents with a conversation'
complete -c askhost -n $run -s V -l version -d 'the version'
complete -c askhost -n $run -s h -l help -d 'show the help'
complete -c askhost -n __askhost_after_dashdash -F -a '(__fish_complete_subcommand --fcs-skip=1)'

complete -c askhost -n '__fish_seen_subcommand_from answer' -s f -l file -r -F -d 'the JSON from a file'
complete -c askhost -n '__fish_seen_subcommand_from answer' -s t -l text -x -d 'your own words'
complete -c askhost -n '__fish_seen_subcommand_from answer' -s e -l edit -d 'edit a copy in $VISUAL or $EDITOR'
complete -c askhost -n '__fish_seen_subcommand_from answer' -l pending-file -r -F -d 'another pending-questions file'
complete -c askhost -n '__fish_seen_subcommand_from attach' -l next -d 'the host whose questions have waited longest'
complete -c askhost -n '__fish_seen_subcommand_from attach' -l popup -d 'end once nothing waits, and drop the keys typed in the moment a question opens'
complete -c askhost -n '__fish_seen_subcommand_from codex-hook' -a 'install'
complete -c askhost -n '__fish_seen_subcommand_from codex-hook' -l project -d 'install into ./.codex/hooks.json'
complete -c askhost -n '__fish_seen_subcommand_from codex-hook' -l hooks -r -F -d 'install into that hooks file'
complete -c askhost -n '__fish_seen_subcommand_from codex-hook' -l remove -d 'take askhost\'s hooks out of that file instead'
complete -c askhost -n '__fish_seen_subcommand_from gemini-hook' -a 'install'
complete -c askhost -n '__fish_seen_subcommand_from gemini-hook' -l project -d 'install into ./.gemini/settings.json'
complete -c askhost -n '__fish_seen_subcommand_from gemini-hook' -l settings -r -F -d 'install into that settings file'
complete -c askhost -n '__fish_seen_subcommand_from gemini-hook' -l remove -d 'take askhost\'s hooks out of that file instead'
complete -c askhost -n '__fish_seen_subcommand_from history' -l session -x -d 'that session'
complete -c askhost -n '__fish_seen_subcommand_from history' -l json -d 'as JSON'
complete -c askhost -n '__fish_seen_subcommand_from history' -l summary -d 'one sentence per question, as at compaction'
complete -c askhost -n '__fish_seen_subcommand_from history' -l list -d 'every session'
complete -c askhost -n '__fish_seen_subcommand_from hook' -a 'install'
complete -c askhost -n '__fish_seen_subcommand_from hook' -l project -d 'install into ./.claude/settings.json'
complete -c askhost -n '__fish_seen_subcommand_from hook' -l settings -r -F -d 'install into that settings file'
complete -c askhost -n '__fish_seen_subcommand_from hosts' -l json -d 'the registry and the choice as JSON'
complete -c askhost -n '__fish_seen_subcommand_from mcp' -l print -d 'no waiting'
complete -c askhost -n '__fish_seen_subcommand_from mcp' -l pending-file -r -F -d 'the pending-questions file'
complete -c askhost -n '__fish_seen_subcommand_from mcp' -l expire-after -x -d 'how long a question that waits on the client'
complete -c askhost -n '__fish_seen_subcommand_from mcp' -l progress-interval -x -d 'how often a waiting call that carries a progressToken gets notifications/progress'
complete -c askhost -n '__fish_seen_subcommand_from opencode' -a 'install ask permission summary'
complete -c askhost -n '__fish_seen_subcommand_from opencode' -l project -d 'install into ./.opencode/plugin/'
complete -c askhost -n '__fish_seen_subcommand_from opencode' -l dir -r -F -d 'install into DIR/plugin/'
complete -c askhost -n '__fish_seen_subcommand_from opencode' -l remove -d 'take askhost\'s plugin out again'
complete -c askhost -n '__fish_seen_subcommand_from questions' -a 'show clear'
complete -c askhost -n '__fish_seen_subcommand_from questions' -l json -d 'the file as askhost reads it'
complete -c askhost -n '__fish_seen_subcommand_from questions' -l pending-file -r -F -d 'another pending-questions file'
complete -c askhost -n '__fish_seen_subcommand_from status' -l tmux -d 'one short line for tmux\'s status line, empty when nothing waits'
complete -c askhost -n '__fish_seen_subcommand_from status' -l json -d 'as JSON'
complete -c askhost -n '__fish_seen_subcommand_from web' -l listen -x -d 'where to listen'
complete -c askhost -n '__fish_seen_subcommand_from web' -l public-name -x -d 'a name the page is also reached by'
complete -c askhost -n '__fish_seen_subcommand_from web' -l tls-cert -r -F -d 'serve HTTPS with this certificate'
complete -c askhost -n '__fish_seen_subcommand_from web' -l tls-key -r -F -d 'and this key'
complete -c askhost -n '__fish_seen_subcommand_from web' -l behind-proxy -d 'plain HTTP beyond loopback, for a proxy in front that terminates TLS'
complete -c askhost -n '__fish_seen_subcommand_from web' -l on-question -x -d 'run CMD when a question starts waiting, with ASKHOST_WEB_URL'
complete -c askhost -n '__fish_seen_subcommand_from web' -l url -d 'print the URL'
complete -c askhost -n '__fish_seen_subcommand_from web' -l sign-in-link -d 'print a one-time link for a new device'
complete -c askhost -n '__fish_seen_subcommand_from web' -l new-token -d 'replace the token'
complete -c askhost -n "__fish_seen_subcommand_from $subs" -l help -d 'show the help'
