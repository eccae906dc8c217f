package dev.lomicontrol.git;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.SecretPaths;

/** Path rules shared by reads and plans: valid, relative, never secret. */
final class GitPaths {

    private GitPaths() {}

    /** Validates a caller's path: INVALID_ARGUMENT when malformed, SCOPE_DENIED when secret. */
    static String checked(String path) {
        RelativePath parsed = RelativePath.parse(path);
        if (parsed.isRoot()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a file path is required");
        }
        if (SecretPaths.isSecret(parsed)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "secret paths are not available");
        }
        return parsed.toString();
    }

    /** True when a repository path must stay invisible (secret, or not a valid relative path). */
    static boolean hidden(String path) {
        try {
            return SecretPaths.isSecret(RelativePath.parse(path));
        } catch (LomiException e) {
            return true;
        }
    }
}
