package dev.lomicontrol.git;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.util.FS;
import org.eclipse.jgit.util.FS_POSIX;
import org.eclipse.jgit.util.ProcessResult;
import org.jspecify.annotations.Nullable;

/**
 * The file system JGit sees for every repository the broker opens: it finds no hooks (wherever
 * {@code core.hooksPath} points, in the worktree, {@code .git/hooks} or the user's config) and
 * starts no command JGit would run on a repository's behalf: external clean/smudge filters,
 * {@code remote.*.uploadpack}/{@code receivepack} programs. Such an attempt is refused
 * (UNSUPPORTED_CAPABILITY) before any process starts. SPEC §10 "Git": git never runs repository code.
 */
final class NoRepositoryCode extends FS_POSIX {

    /** What the plan and the docs say about it. */
    static final String PROMISE = "not run: repository hooks, filters and configured transport commands";

    NoRepositoryCode() {
        super();
    }

    private NoRepositoryCode(FS src) {
        super(src);
    }

    @Override
    public FS newInstance() {
        return new NoRepositoryCode(this);
    }

    @Override
    public @Nullable File findHook(Repository repository, String hookName) {
        return null;
    }

    @Override
    public ProcessResult runHookIfPresent(Repository repository, String hookName, String[] args) {
        return new ProcessResult(ProcessResult.Status.NOT_PRESENT);
    }

    @Override
    public ProcessResult runHookIfPresent(
            Repository repository,
            String hookName,
            String[] args,
            OutputStream outRedirect,
            OutputStream errRedirect,
            String stdinArgs) {
        return new ProcessResult(ProcessResult.Status.NOT_PRESENT);
    }

    @Override
    protected ProcessResult internalRunHookIfPresent(
            Repository repository,
            String hookName,
            String[] args,
            OutputStream outRedirect,
            OutputStream errRedirect,
            String stdinArgs) {
        return new ProcessResult(ProcessResult.Status.NOT_PRESENT);
    }

    @Override
    public ProcessBuilder runInShell(String cmd, String[] args) {
        throw refused(cmd);
    }

    @Override
    public ExecutionResult execute(ProcessBuilder pb, InputStream in) {
        throw refused(String.join(" ", pb.command()));
    }

    @Override
    public int runProcess(
            ProcessBuilder processBuilder, OutputStream outRedirect, OutputStream errRedirect, String stdinArgs) {
        throw refused(String.join(" ", processBuilder.command()));
    }

    @Override
    public int runProcess(
            ProcessBuilder processBuilder, OutputStream outRedirect, OutputStream errRedirect, InputStream inRedirect) {
        throw refused(String.join(" ", processBuilder.command()));
    }

    private static LomiException refused(String command) {
        String first = command.strip().split("\\s+", 2)[0];
        return new LomiException(
                ErrorCode.UNSUPPORTED_CAPABILITY,
                "the repository's configuration asks git to run '"
                        + (first.length() > 80 ? first.substring(0, 80) + "…" : first)
                        + "' (a filter or transport command); lomi-control never runs "
                        + "repository code: use git in your own terminal for this repository");
    }
}
