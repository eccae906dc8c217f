/**
 * Git for one project's worktree through JGit: bounded reads (status, diff, history, commit,
 * remotes) that hide secret paths and redact remote credentials, and mutations that run only as an
 * exact, approved {@link dev.lomicontrol.git.GitPlan}. Entry point: {@link dev.lomicontrol.git.GitRepository}.
 */
@NullMarked
package dev.lomicontrol.git;

import org.jspecify.annotations.NullMarked;
