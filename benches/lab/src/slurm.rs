//! A suite as a Slurm array job, for `searchlab bench SUITE --slurm DIR`.
//!
//! [`SlurmJob::write`] puts three scripts into `DIR`:
//!
//! - `array.sbatch`: array task `K` of `1-N` runs
//!   `searchlab bench SUITE --shard K/N --out DIR/shard-K`;
//! - `merge.sbatch`: `searchlab merge` of the `N` shards' results into
//!   `DIR/results.jsonl`, then `searchlab report` into `DIR`;
//! - `submit.sh`: submits the array, then the merge to start once every
//!   array task has succeeded (what [`SlurmJob::submit`] does).
//!
//! The scripts name the `searchlab` binary and the suite by absolute path,
//! so both must be where the compute nodes see them (a shared file system).
//! Logs go to `DIR/logs/`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::record::write_file;
use crate::runner::Shard;
use crate::SuiteError;

/// A suite's array job: what to run, how many shards, and what to ask
/// Slurm for. Paths should be absolute: the jobs run elsewhere.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlurmJob {
    /// The directory of the scripts, logs, shard outputs and merged results.
    pub dir: PathBuf,
    /// The number of array tasks, one shard each (at least 1).
    pub shards: usize,
    /// The `searchlab` binary the tasks run.
    pub searchlab: PathBuf,
    /// The suite file; `None` for the built-in suite (or a suite named by
    /// `bench_args`, such as `--pddl DIR...`).
    pub suite: Option<PathBuf>,
    /// More arguments of every task's `searchlab bench` (limits, `--pddl`,
    /// `--configs`, `--jobs`). Without `--jobs`, a task uses the CPUs Slurm
    /// gave it.
    pub bench_args: Vec<String>,
    /// More arguments of the merge job's `searchlab report` (`--compare`,
    /// `--time-limit`, `--memory-limit`).
    pub report_args: Vec<String>,
    /// The job name (the merge job's gets `-merge`).
    pub name: String,
    /// The partition (`--partition`); the cluster's default if `None`.
    pub partition: Option<String>,
    /// Each array task's time limit in minutes (`--time`), also the merge
    /// job's; the partition's default if `None`. Not the per-search limit
    /// (`--max-time` in `bench_args`).
    pub time_minutes: Option<u32>,
    /// CPUs per array task (`--cpus-per-task`); Slurm's default (one) if
    /// `None`.
    pub cpus_per_task: Option<u32>,
    /// Memory per array task in MiB (`--mem`); the partition's default if
    /// `None`.
    pub memory_mb: Option<u64>,
}

/// The files [`SlurmJob::write`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlurmFiles {
    /// The array job's script.
    pub array: PathBuf,
    /// The merge job's script.
    pub merge: PathBuf,
    /// The script that submits both.
    pub submit: PathBuf,
}

/// The job ids [`SlurmJob::submit`] got from `sbatch`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submitted {
    /// The array job.
    pub array: String,
    /// The merge job, held until every array task has succeeded.
    pub merge: String,
}

impl SlurmJob {
    /// Shard `index`'s results file, as `searchlab bench --shard
    /// index/shards --out DIR/shard-index` writes it.
    ///
    /// ```
    /// use searchlab_lab::slurm::SlurmJob;
    /// let job = SlurmJob { dir: "/scratch/run".into(), shards: 4, ..SlurmJob::default() };
    /// assert_eq!(job.shard_results(2).to_str(), Some("/scratch/run/shard-2/results-2-of-4.jsonl"));
    /// assert_eq!(job.merged_results().to_str(), Some("/scratch/run/results.jsonl"));
    /// ```
    pub fn shard_results(&self, index: usize) -> PathBuf {
        let shard = Shard {
            index,
            count: self.shards,
        };
        self.dir
            .join(format!("shard-{index}"))
            .join(format!("{}.jsonl", shard.stem()))
    }

    /// The merged results the merge job writes.
    pub fn merged_results(&self) -> PathBuf {
        self.dir.join("results.jsonl")
    }

    /// The job's directory, as text for the scripts, once the job is known
    /// to have a shard.
    fn checked_dir(&self) -> Result<&str, SuiteError> {
        if self.shards == 0 {
            return Err(SuiteError::Slurm(
                "an array job needs at least one shard".to_owned(),
            ));
        }
        utf8(&self.dir)
    }

    /// The array job's script: array task `K` runs shard `K` of the suite.
    ///
    /// # Errors
    /// [`SuiteError::Slurm`] with no shards, or a path that is not UTF-8
    /// or that a `#SBATCH` line cannot carry (a backslash or a line break).
    ///
    /// ```
    /// use searchlab_lab::slurm::SlurmJob;
    /// let job = SlurmJob {
    ///     dir: "/scratch/run 1".into(),
    ///     shards: 4,
    ///     searchlab: "/opt/searchlab".into(),
    ///     suite: Some("/home/me/suite.toml".into()),
    ///     ..SlurmJob::default()
    /// };
    /// let script = job.array_script().unwrap();
    /// assert!(script.contains("#SBATCH --array=1-4\n"));
    /// assert!(script.contains("--shard \"${SLURM_ARRAY_TASK_ID}/4\""));
    /// assert!(script.contains("--out '/scratch/run 1/shard-'\"${SLURM_ARRAY_TASK_ID}\""));
    /// ```
    pub fn array_script(&self) -> Result<String, SuiteError> {
        let dir = self.checked_dir()?;
        let mut script = format!(
            "#!/bin/bash\n\
             # searchlab suite on Slurm: array task K runs shard K of {n}.\n\
             # Written by `searchlab bench --slurm`; submit.sh submits it and the merge.\n",
            n = self.shards
        );
        directive(&mut script, "job-name", &self.job_name(""))?;
        directive(&mut script, "array", &format!("1-{}", self.shards))?;
        directive(&mut script, "output", &log_path(dir, "shard-%a.out"))?;
        self.resources(&mut script, true)?;
        let mut command = vec![shell_quote(utf8(&self.searchlab)?), "bench".to_owned()];
        if let Some(suite) = &self.suite {
            command.push(shell_quote(utf8(suite)?));
        }
        command.push("--shard".to_owned());
        command.push(format!("\"${{SLURM_ARRAY_TASK_ID}}/{}\"", self.shards));
        command.push("--out".to_owned());
        command.push(format!(
            "{}\"${{SLURM_ARRAY_TASK_ID}}\"",
            shell_quote(&format!("{dir}/shard-"))
        ));
        if !self.bench_args.iter().any(|a| a == "--jobs" || a == "-j") {
            command.push("--jobs".to_owned());
            command.push("\"${SLURM_CPUS_PER_TASK:-1}\"".to_owned());
        }
        command.push("--no-progress".to_owned());
        // A requeued task completes its shard instead of failing on it.
        command.push("--resume".to_owned());
        command.extend(self.bench_args.iter().map(|a| shell_quote(a)));
        let _ = write!(script, "set -euo pipefail\nexec {}\n", command.join(" "));
        Ok(script)
    }

    /// The merge job's script: merges the shards' results into
    /// `DIR/results.jsonl` and writes the report into `DIR`.
    ///
    /// # Errors
    /// As [`SlurmJob::array_script`].
    ///
    /// ```
    /// use searchlab_lab::slurm::SlurmJob;
    /// let job = SlurmJob {
    ///     dir: "/scratch/run".into(),
    ///     shards: 2,
    ///     searchlab: "/opt/searchlab".into(),
    ///     ..SlurmJob::default()
    /// };
    /// let script = job.merge_script().unwrap();
    /// assert!(script.contains("/scratch/run/shard-2/results-2-of-2.jsonl"));
    /// assert!(script.contains("--out /scratch/run/results.jsonl"));
    /// ```
    pub fn merge_script(&self) -> Result<String, SuiteError> {
        let dir = self.checked_dir()?;
        let mut script = format!(
            "#!/bin/bash\n\
             # Merges the {n} shards of a searchlab suite and writes its report.\n\
             # Written by `searchlab bench --slurm`; submit.sh holds it until every array task has succeeded.\n",
            n = self.shards
        );
        directive(&mut script, "job-name", &self.job_name("-merge"))?;
        directive(&mut script, "output", &log_path(dir, "merge.out"))?;
        // Without this a merge whose array failed waits in the queue forever.
        directive(&mut script, "kill-on-invalid-dep", "yes")?;
        self.resources(&mut script, false)?;
        let searchlab = shell_quote(utf8(&self.searchlab)?);
        let merged = shell_quote(utf8(&self.merged_results())?);
        let _ = writeln!(script, "set -euo pipefail\n{searchlab} merge \\");
        for index in 1..=self.shards {
            let part = self.shard_results(index);
            let _ = writeln!(script, "    {} \\", shell_quote(utf8(&part)?));
        }
        let _ = writeln!(script, "    --out {merged}");
        let mut report = vec![searchlab, "report".to_owned(), merged];
        report.push("--out".to_owned());
        report.push(shell_quote(dir));
        report.extend(self.report_args.iter().map(|a| shell_quote(a)));
        let _ = writeln!(script, "{}", report.join(" "));
        Ok(script)
    }

    /// The shell script that submits the array job, then the merge job with
    /// a dependency on it (`afterok`): what [`SlurmJob::submit`] does, for
    /// later or by hand.
    ///
    /// # Errors
    /// As [`SlurmJob::array_script`].
    pub fn submit_script(&self) -> Result<String, SuiteError> {
        let (array, merge) = self.script_paths();
        Ok(format!(
            "#!/bin/sh\n\
             # Submits the array job, then the merge to run once every array task has succeeded.\n\
             set -eu\n\
             array=$(sbatch --parsable {array})\n\
             array=${{array%%;*}}\n\
             merge=$(sbatch --parsable --dependency=afterok:\"$array\" {merge})\n\
             echo \"array job $array ({n} tasks), merge job ${{merge%%;*}}: results in \"{results}\n",
            array = shell_quote(utf8(&array)?),
            merge = shell_quote(utf8(&merge)?),
            n = self.shards,
            results = shell_quote(utf8(&self.merged_results())?),
        ))
    }

    /// Writes `array.sbatch`, `merge.sbatch` and `submit.sh` into the
    /// directory (creating it and its `logs/`, where Slurm writes the
    /// jobs' output).
    ///
    /// # Errors
    /// [`SuiteError::Io`] when a file cannot be written; otherwise as
    /// [`SlurmJob::array_script`].
    ///
    /// ```
    /// use searchlab_lab::slurm::SlurmJob;
    /// let dir = std::env::temp_dir().join(format!("searchlab-slurm-doc-{}", std::process::id()));
    /// let job = SlurmJob {
    ///     dir: dir.clone(),
    ///     shards: 2,
    ///     searchlab: "/opt/searchlab".into(),
    ///     ..SlurmJob::default()
    /// };
    /// let files = job.write().unwrap();
    /// assert!(std::fs::read_to_string(&files.array).unwrap().contains("--array=1-2"));
    /// assert!(dir.join("logs").is_dir());
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn write(&self) -> Result<SlurmFiles, SuiteError> {
        let (array, merge) = self.script_paths();
        let submit = self.dir.join("submit.sh");
        let scripts = [
            (&array, self.array_script()?),
            (&merge, self.merge_script()?),
            (&submit, self.submit_script()?),
        ];
        let logs = self.dir.join("logs");
        std::fs::create_dir_all(&logs).map_err(|e| SuiteError::io(&logs, &e))?;
        for (path, text) in scripts {
            write_file(path, text.as_bytes())?;
            executable(path)?;
        }
        Ok(SlurmFiles {
            array,
            merge,
            submit,
        })
    }

    /// Submits the scripts [`SlurmJob::write`] wrote with `sbatch` (the
    /// program's path or name): the array job, then the merge job with
    /// `--dependency=afterok:` the array's id.
    ///
    /// # Errors
    /// [`SuiteError::Slurm`] when `sbatch` cannot be run (not installed),
    /// fails (its message included) or prints no job id.
    ///
    /// ```no_run
    /// use searchlab_lab::slurm::SlurmJob;
    /// # fn job() -> SlurmJob { SlurmJob::default() }
    /// let job = job();
    /// job.write().unwrap();
    /// let ids = job.submit("sbatch".as_ref()).unwrap();
    /// println!("array job {}, merge job {}", ids.array, ids.merge);
    /// ```
    pub fn submit(&self, sbatch: &Path) -> Result<Submitted, SuiteError> {
        let (array_script, merge_script) = self.script_paths();
        let array = run_sbatch(sbatch, &["--parsable".as_ref(), array_script.as_os_str()])?;
        let dependency = format!("--dependency=afterok:{array}");
        let merge = run_sbatch(
            sbatch,
            &[
                "--parsable".as_ref(),
                dependency.as_ref(),
                merge_script.as_os_str(),
            ],
        )
        .map_err(|e| {
            SuiteError::Slurm(format!(
                "{e} (array job {array} is queued: scancel {array} to drop it)"
            ))
        })?;
        Ok(Submitted { array, merge })
    }

    fn script_paths(&self) -> (PathBuf, PathBuf) {
        (self.dir.join("array.sbatch"), self.dir.join("merge.sbatch"))
    }

    fn job_name(&self, suffix: &str) -> String {
        let name = if self.name.is_empty() {
            "searchlab"
        } else {
            &self.name
        };
        format!("{name}{suffix}")
    }

    /// The `#SBATCH` lines of the resources asked for; CPUs only for the
    /// array's tasks (merging needs one).
    fn resources(&self, script: &mut String, cpus: bool) -> Result<(), SuiteError> {
        if let Some(partition) = &self.partition {
            directive(script, "partition", partition)?;
        }
        if let Some(minutes) = self.time_minutes {
            directive(script, "time", &minutes.to_string())?;
        }
        if let Some(n) = self.cpus_per_task.filter(|_| cpus) {
            directive(script, "cpus-per-task", &n.to_string())?;
        }
        if let Some(mb) = self.memory_mb {
            directive(script, "mem", &format!("{mb}M"))?;
        }
        Ok(())
    }
}

/// Runs `sbatch args` and returns the job id it prints (`--parsable`
/// prints `id` or `id;cluster`).
fn run_sbatch(sbatch: &Path, args: &[&std::ffi::OsStr]) -> Result<String, SuiteError> {
    let output = Command::new(sbatch).args(args).output().map_err(|e| {
        let why = if e.kind() == std::io::ErrorKind::NotFound {
            "not found: is Slurm installed on this machine?".to_owned()
        } else {
            e.to_string()
        };
        SuiteError::Slurm(format!("cannot run {}: {why}", sbatch.display()))
    })?;
    let printed = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        return Err(SuiteError::Slurm(format!(
            "{} failed ({}): {}",
            sbatch.display(),
            output.status,
            said.trim()
        )));
    }
    let id = printed.trim().split(';').next().unwrap_or_default();
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return Err(SuiteError::Slurm(format!(
            "{} printed `{}`, not a job id",
            sbatch.display(),
            printed.trim()
        )));
    }
    Ok(id.to_owned())
}

#[cfg(unix)]
fn executable(path: &Path) -> Result<(), SuiteError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| SuiteError::io(path, &e))
}

#[cfg(not(unix))]
fn executable(_: &Path) -> Result<(), SuiteError> {
    Ok(())
}

fn utf8(path: &Path) -> Result<&str, SuiteError> {
    path.to_str().ok_or_else(|| {
        SuiteError::Slurm(format!(
            "{} is not UTF-8, which a job script cannot name",
            path.display()
        ))
    })
}

/// A path under `dir/logs/` for `--output`, where `%` is a pattern
/// character (`%a`: the array task).
fn log_path(dir: &str, file: &str) -> String {
    format!("{}/logs/{file}", dir.replace('%', "%%"))
}

/// Appends `#SBATCH --option=value`, quoted as sbatch reads it: like the
/// shell, except that a backslash escapes even between quotes and a line
/// ends the directive, so neither can be carried.
fn directive(script: &mut String, option: &str, value: &str) -> Result<(), SuiteError> {
    if value.contains(['\\', '\n', '\r']) {
        return Err(SuiteError::Slurm(format!(
            "--{option} `{value}` has a backslash or a line break, which a #SBATCH line cannot carry"
        )));
    }
    let _ = writeln!(script, "#SBATCH --{option}={}", shell_quote(value));
    Ok(())
}

/// `text` as one shell word: unchanged if it is plain, else in single
/// quotes (a quote inside as `'\''`).
///
/// ```
/// use searchlab_lab::slurm::shell_quote;
/// assert_eq!(shell_quote("/opt/searchlab"), "/opt/searchlab");
/// assert_eq!(shell_quote("/my runs/it's"), r"'/my runs/it'\''s'");
/// assert_eq!(shell_quote(""), "''");
/// ```
pub fn shell_quote(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:=@%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job() -> SlurmJob {
        SlurmJob {
            dir: "/scratch/my runs/lab".into(),
            shards: 4,
            searchlab: "/opt/search lab/searchlab".into(),
            suite: Some("/home/me/suites/smoke.toml".into()),
            bench_args: vec!["--max-time".into(), "30".into()],
            report_args: vec!["--compare".into(), "a b".into(), "c".into()],
            name: "searchlab-smoke".into(),
            partition: Some("short".into()),
            time_minutes: Some(90),
            cpus_per_task: Some(8),
            memory_mb: Some(4096),
        }
    }

    /// The `#SBATCH` lines, before the first command, in order.
    fn directives(script: &str) -> Vec<&str> {
        script
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with('#'))
            .filter(|l| l.starts_with("#SBATCH "))
            .collect()
    }

    #[test]
    fn array_script_runs_one_shard_per_task() {
        let script = job().array_script().unwrap();
        assert!(script.starts_with("#!/bin/bash\n"), "{script}");
        assert_eq!(
            directives(&script),
            [
                "#SBATCH --job-name=searchlab-smoke",
                "#SBATCH --array=1-4",
                "#SBATCH --output='/scratch/my runs/lab/logs/shard-%a.out'",
                "#SBATCH --partition=short",
                "#SBATCH --time=90",
                "#SBATCH --cpus-per-task=8",
                "#SBATCH --mem=4096M",
            ]
        );
        let command = script.lines().last().unwrap();
        assert_eq!(
            command,
            "exec '/opt/search lab/searchlab' bench /home/me/suites/smoke.toml \
             --shard \"${SLURM_ARRAY_TASK_ID}/4\" \
             --out '/scratch/my runs/lab/shard-'\"${SLURM_ARRAY_TASK_ID}\" \
             --jobs \"${SLURM_CPUS_PER_TASK:-1}\" --no-progress --resume --max-time 30"
        );
        assert!(script.contains("set -euo pipefail\n"));
    }

    #[test]
    fn merge_script_merges_every_shard_then_reports() {
        let script = job().merge_script().unwrap();
        assert!(script.starts_with("#!/bin/bash\n"), "{script}");
        assert_eq!(
            directives(&script),
            [
                "#SBATCH --job-name=searchlab-smoke-merge",
                "#SBATCH --output='/scratch/my runs/lab/logs/merge.out'",
                "#SBATCH --kill-on-invalid-dep=yes",
                "#SBATCH --partition=short",
                "#SBATCH --time=90",
                "#SBATCH --mem=4096M",
            ]
        );
        let body: Vec<&str> = script.lines().skip_while(|l| l.starts_with('#')).collect();
        assert_eq!(
            body,
            [
                "set -euo pipefail",
                "'/opt/search lab/searchlab' merge \\",
                "    '/scratch/my runs/lab/shard-1/results-1-of-4.jsonl' \\",
                "    '/scratch/my runs/lab/shard-2/results-2-of-4.jsonl' \\",
                "    '/scratch/my runs/lab/shard-3/results-3-of-4.jsonl' \\",
                "    '/scratch/my runs/lab/shard-4/results-4-of-4.jsonl' \\",
                "    --out '/scratch/my runs/lab/results.jsonl'",
                "'/opt/search lab/searchlab' report '/scratch/my runs/lab/results.jsonl' \
                 --out '/scratch/my runs/lab' --compare 'a b' c",
            ]
        );
    }

    #[test]
    fn submit_script_holds_the_merge_until_the_array_succeeds() {
        let script = job().submit_script().unwrap();
        assert!(script.contains("array=$(sbatch --parsable '/scratch/my runs/lab/array.sbatch')"));
        assert!(script.contains(
            "merge=$(sbatch --parsable --dependency=afterok:\"$array\" \
             '/scratch/my runs/lab/merge.sbatch')"
        ));
    }

    #[test]
    fn defaults_ask_slurm_for_nothing_and_use_the_task_cpus() {
        let job = SlurmJob {
            dir: "/d".into(),
            shards: 1,
            searchlab: "/s".into(),
            ..SlurmJob::default()
        };
        let script = job.array_script().unwrap();
        assert_eq!(
            directives(&script),
            [
                "#SBATCH --job-name=searchlab",
                "#SBATCH --array=1-1",
                "#SBATCH --output=/d/logs/shard-%a.out",
            ]
        );
        assert!(script.ends_with(
            "exec /s bench --shard \"${SLURM_ARRAY_TASK_ID}/1\" --out /d/shard-\"${SLURM_ARRAY_TASK_ID}\" \
             --jobs \"${SLURM_CPUS_PER_TASK:-1}\" --no-progress --resume\n"
        ));
        // A --jobs of the user's replaces the task's CPUs.
        let job = SlurmJob {
            bench_args: vec!["--jobs".into(), "2".into()],
            ..job
        };
        let script = job.array_script().unwrap();
        assert!(!script.contains("SLURM_CPUS_PER_TASK"), "{script}");
        assert!(
            script.ends_with("--no-progress --resume --jobs 2\n"),
            "{script}"
        );
    }

    #[test]
    fn what_a_script_cannot_carry_is_refused() {
        let no_shards = SlurmJob { shards: 0, ..job() };
        let e = no_shards.array_script().unwrap_err().to_string();
        assert!(e.contains("at least one shard"), "{e}");
        let backslash = SlurmJob {
            dir: r"/scratch/a\b".into(),
            ..job()
        };
        let e = backslash.array_script().unwrap_err().to_string();
        assert!(e.contains("backslash"), "{e}");
        // A `%` in the directory is not a pattern of --output's.
        let percent = SlurmJob {
            dir: "/scratch/100%".into(),
            ..job()
        };
        assert!(percent
            .array_script()
            .unwrap()
            .contains("#SBATCH --output=/scratch/100%%/logs/shard-%a.out\n"));
    }

    #[test]
    #[cfg(unix)]
    fn quoting_survives_the_shell() {
        for text in ["plain", "with space", "it's", "$HOME `x` \"q\"", "", "a\nb"] {
            let out = Command::new("sh")
                .args(["-c", &format!("printf %s {}", shell_quote(text))])
                .output()
                .unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stdout), text);
        }
    }

    #[test]
    fn a_missing_sbatch_says_so() {
        let e = job()
            .submit(Path::new("/nonexistent/sbatch"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("/nonexistent/sbatch") && e.contains("is Slurm installed"),
            "{e}"
        );
    }
}
