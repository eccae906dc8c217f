package dev.lomicontrol.git;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.net.URISyntaxException;
import java.util.List;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.transport.RemoteConfig;
import org.eclipse.jgit.transport.URIish;

/**
 * Where a fetch, pull or push of a configured remote really goes (security review N7): the URL that
 * JGit's {@link RemoteConfig} resolves from {@code remote.<name>.url} / {@code pushurl} after
 * {@code url.<base>.insteadOf} and {@code pushInsteadOf}, the same list {@link Executor} opens the
 * transport from. The plan carries it with credentials redacted, so the admin approves the
 * destination and not only the remote's name. No network is involved.
 */
final class RemoteTarget {

    private RemoteTarget() {}

    /** The remote's configuration as JGit reads it (TARGET_NOT_FOUND without a URL, INVALID_ARGUMENT for a bad one). */
    static RemoteConfig config(Repository repo, String remote) {
        Planner.requireRemote(repo, remote);
        try {
            return new RemoteConfig(repo.getConfig(), remote);
        } catch (URISyntaxException e) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a URL of remote " + remote + " is invalid");
        }
    }

    /**
     * The one URL the operation contacts: a fetch the first {@code url} (as git and JGit do); a push its
     * {@code pushurl}s, else its {@code url}s, which must be exactly one (git would push to each, the
     * broker runs one exact plan).
     */
    static URIish uri(RemoteConfig config, boolean push) {
        List<URIish> uris = config.getURIs();
        if (push && !config.getPushURIs().isEmpty()) {
            uris = config.getPushURIs();
        }
        if (uris.isEmpty()) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "remote " + config.getName() + " has no URL");
        }
        if (push && uris.size() > 1) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    "remote " + config.getName() + " has " + uris.size()
                            + " push URLs; the broker pushes to exactly one: push by hand or configure one");
        }
        URIish uri = uris.get(0);
        if ("git".equals(uri.getScheme())) {
            // JGit reads git:// through a plain socket and times out by interrupting the reader, which
            // a socket read on Java 17 ignores: a silent daemon would hold the call forever
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    "remote " + config.getName() + " uses git://, which the broker does not run: it cannot"
                            + " time out on a silent server and has neither authentication nor integrity;"
                            + " use https or ssh");
        }
        requireNoLocalPackProgram(config, uri, push);
        return uri;
    }

    /** The URL as the plan and the admin's summary show it: credentials ({@code user:password@}) redacted. */
    static String shown(URIish uri) {
        return Remotes.redact(uri.toPrivateString());
    }

    /** {@link #shown} of {@link #uri} for a remote by name. */
    static String shown(Repository repo, String remote, boolean push) {
        return shown(uri(config(repo, remote), push));
    }

    /**
     * A configured upload-pack or receive-pack program for a local (file) URL would be started on this
     * machine, which the broker never does: refused before the admin is asked. Over ssh the same
     * setting names a program on the server, which is the server's business.
     */
    private static void requireNoLocalPackProgram(RemoteConfig config, URIish uri, boolean push) {
        boolean local = uri.getHost() == null
                && (uri.getScheme() == null || uri.getScheme().equals("file"));
        boolean program = push
                ? !config.getReceivePack().equals(RemoteConfig.DEFAULT_RECEIVE_PACK)
                : !config.getUploadPack().equals(RemoteConfig.DEFAULT_UPLOAD_PACK);
        if (local && program) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    "remote " + config.getName() + " configures " + (push ? "receivepack" : "uploadpack")
                            + ", a program the broker never runs (" + NoRepositoryCode.PROMISE + ")");
        }
    }
}
