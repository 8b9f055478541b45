/**
 * `envstudio <command> --help`: every verb and flag each command accepts, with what it does.
 * Kept beside the command list (commands.ts) so a new flag and its explanation land together;
 * cli-help.test.ts checks that every flag a command's parser accepts is explained here.
 */
export const ENV_HELP = `usage:
  envstudio env tools --source env.py --class Name [--backend pyodide|bwrap]
  envstudio env replay --episodes file.jsonl [--backend pyodide|bwrap] [--concurrency N]

  tools     print the tool schemas the sandbox derives from an environment class (JSON)
  replay    replay recorded episodes (JSON lines) through the sandbox and print each result

  --source FILE       the environment's Python source
  --class NAME        the environment class in that source
  --episodes FILE     JSON lines, one episode per line
  --backend B         sandbox backend: pyodide (default) or bwrap
  --concurrency N     episodes replayed at once (default 1)`;

export const PIPELINE_HELP = `usage:
  envstudio pipeline run (--ideas ideas.txt | --tasks tasks.jsonl [--text-field F])
                         [--models M | --models stage=M,...] [--rounds N] [--max-tokens N]
                         [--max-cost USD] [--name NAME] [--no-worker] [--db-wait SECONDS]

  run       start a generation run (SkelBuilder and ScenGenerator) and follow it to the end

  --ideas FILE        environment ideas, one per line
  --tasks FILE        a task set (JSON or JSON lines of strings or objects) to mine topics from
  --text-field F      the field holding each task's text (needed when tasks are objects)
  --models M          one model for every stage, or stage=model pairs separated by commas
  --rounds N          quality-check rounds per environment
  --max-tokens N      a cap on the tokens of each LLM answer
  --max-cost USD      stop the run once it has cost this much (needs priced models)
  --name NAME         the run's name in the studio
  --no-worker         only enqueue and follow progress (workers started with \`npm run worker\` do the work)
  --db-wait SECONDS   how long to keep retrying while the database is unreachable (default 300)

  The LLM endpoint comes from OPENAI_BASE_URL and OPENAI_API_KEY.`;

export const DATASET_HELP = `usage:
  envstudio dataset list
  envstudio dataset create --name NAME [--seed N] [--test-ratio R] [--env a,b] [--description TEXT]
                           [--allow-unverified] [--exclude-zero-signal] [--group-size G]

  list      every dataset with its latest version and scenario count
  create    a new dataset (or a new version of one) from the accepted scenarios

  --name NAME          the dataset's name
  --seed N             seed of the train/test split
  --test-ratio R       share of scenarios in the test split (0–1)
  --env a,b            only these environments (their env_id)
  --description TEXT   a note stored with the version
  --allow-unverified   admit scenarios whose validator proof is not VERIFIED
  --exclude-zero-signal  leave out scenarios every counted rollout solved, or none did (pooled over
                       models; rollouts count only on the item's pinned versions); says how many
  --group-size G       the GRPO group size G of P(signal) = 1 − p^G − (1 − p)^G (default 8, at least 2)

  Each item's difficulty (n, successes, pass@k, pass^k, P(signal), per model) is frozen into the
  version when it is made; exports carry that snapshot.`;

export const ROLLOUTS_HELP = `usage:
  envstudio rollouts --dataset NAME [--version N] --k K [--models m1,m2] [--max-cost USD]
                     [--conversational] [--no-worker] [--db-wait SECONDS]

  Runs K rollouts per scenario per model over a dataset version's scenarios (a resumable ROLLOUT
  run, like the studio's), follows it to the end, then prints the dataset's difficulty.

  --dataset NAME      the dataset whose scenarios to roll out
  --version N         its version (default: the latest)
  --k K               rollouts per scenario per model (1 to ROLLOUT_MAX_K, default 32)
  --models m1,m2      models to roll out (default: LLM_MODEL); each must be listed by the
                      endpoint's GET /v1/models
  --max-cost USD      stop the run once it has cost this much (needs priced models)
  --conversational    simulate the user turn by turn (default: the task is the first user message)
  --no-worker         only enqueue and follow progress (workers started with \`npm run worker\` do the work)
  --db-wait SECONDS   how long to keep retrying while the database is unreachable (default 300)

  The LLM endpoint comes from OPENAI_BASE_URL and OPENAI_API_KEY.`;

export const REPAIR_HELP = `usage:
  envstudio repair --dataset NAME [--version N] | --env ENV_ID | --scenario ID
                   [--max-cost USD] [--model M] [--concurrency N]

  Asks the model for a fix of every failing item (a scenario whose validator proof failed on its
  checks, or whose checks give full reward to a near-miss; an environment whose current code
  failed quality probes), proves each proposal in the sandbox (checks: no-op 0, gold 1, every
  check flips; code: the failed probes re-run and re-judged, the verified scenarios re-proven) and
  keeps it for review: proven ones wait in the review queue, the others are kept as failed evidence.
  Nothing is applied until a reviewer accepts it. Waits for the run and prints the summary last:
  items tried, proposals proven, proposals failed, cost.

  --dataset NAME     the failing scenarios of this dataset's environments (excluded for a failed
                     proof, or held by override), and those environments whose probes failed
  --version N        the dataset version (default: the latest)
  --env ENV_ID       the failing scenarios of this environment (its env_id), and its code when
                     a quality probe of its current version failed
  --scenario ID      one scenario; refused unless its proof failed
  --max-cost USD     stop once the run's LLM cost reaches this (more than 0)
  --model M          the model asked for fixes (default: LLM_MODEL)
  --concurrency N    items repaired at once (default 2)

  Exit 0 when the run ran, whatever it found (or a dataset had nothing failing); 1 for an unknown
  dataset, environment or scenario, a scenario or environment with nothing to repair, or no
  endpoint; 2 for a usage mistake (e.g. --max-cost 0).`;

export const EXPORT_HELP = (formats: readonly string[]) => `usage:
  envstudio export --dataset NAME [--version N] --format F --out PATH[.tar]

  --dataset NAME   the dataset to export
  --version N      its version (default: the latest)
  --format F       one of ${formats.join(", ")}
  --out PATH       a folder to write, or a .tar file`;

export const IMPORT_HELP = `usage:
  envstudio import FILE|FOLDER … [--class Name] [--env-id ID] [--on-existing fail|new-name|new-version]

  Imports EnvScaler JSON files, or folders holding environment.py and scenarios.json.

  --class NAME        the environment class, when the source holds more than one
  --env-id ID         the env_id to store it under (default: from the file)
  --on-existing M     when the env_id exists: fail (default), new-name, or new-version`;

export const SERVE_HELP = `usage:
  envstudio serve --dataset NAME [--version N] [--port 8100] [--host 127.0.0.1]

  Serves the dataset's scenarios as an RL environment server speaking OpenEnv's protocol
  (docs/envserver.md). On a loopback address no token is needed unless ENVSTUDIO_SERVE_TOKEN is
  set; elsewhere clients need that token (or the one printed at start).

  --dataset NAME   the dataset to serve
  --version N      its version (default: the latest)
  --port N         port to listen on (default 8100; 0 picks a free one)
  --host ADDR      address to bind (default 127.0.0.1)`;

export const MCP_HELP = `usage:
  envstudio mcp --dataset NAME [--version N] [--scenario ID] [--seed N]

  Serves one episode of a scenario of the dataset to an MCP client over stdio (docs/envserver.md):
  the client lists the scenario's tools, calls them, and calls submit for the reward. The
  episode ends when the client disconnects. Point a desktop or CLI agent's MCP configuration at
  this command.

  --dataset NAME    the dataset whose scenario to serve
  --version N       its version (default: the latest)
  --scenario ID     the scenario (env_id/task_id, or a task_id of one environment); default:
                    picked by --seed, else at random
  --seed N          picks the scenario when --scenario is absent, and seeds the episode`;
