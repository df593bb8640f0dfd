#!/bin/sh
# Runs the pi coding agent (optional peer, never a dependency: `npm install -g @mariozechner/pi-coding-agent`
# or any prefix, with PI_BIN naming its `pi`) against the bench's scripted endpoint, for WB_BENCH_PEER:
#   WB_BENCH_PEER="sh $PWD/bench/peers/pi.sh {baseURL}" npm run bench -- --only cli
# Usage: pi.sh BASE_URL PROMPT — a fresh config folder per run whose models.json points at BASE_URL.
set -eu
base_url=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/models.json" <<JSON
{ "providers": { "bench": { "baseUrl": "$base_url", "api": "openai-completions", "apiKey": "sk-bench",
  "compat": { "supportsDeveloperRole": false, "supportsReasoningEffort": false },
  "models": [{ "id": "fake-model" }] } } }
JSON
PI_CODING_AGENT_DIR=$dir PI_OFFLINE=1 "${PI_BIN:-pi}" --provider bench --model fake-model --no-session \
  --no-extensions --no-skills --no-prompt-templates --no-themes -p "$@"
