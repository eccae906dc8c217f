package dev.lomicontrol.files;

import java.util.Locale;
import java.util.Set;

/**
 * Names that must never be seen or touched through the broker (SPEC §10): checked per path
 * component, case-insensitively. A path is secret when any of its components is.
 */
public final class SecretPaths {

    private static final Set<String> EXACT = Set.of(
            ".git",
            ".ssh",
            ".aws",
            ".azure",
            ".gnupg",
            ".codex",
            ".netrc",
            ".npmrc",
            ".pypirc",
            "credentials",
            "credentials.json",
            "id_rsa",
            "id_ed25519",
            "id_ecdsa",
            "id_dsa",
            "id_ecdsa_sk",
            "id_ed25519_sk",
            ".git-credentials",
            ".kube",
            ".docker", // names are checked per component: the whole directory, for .docker/config.json
            ".terraformrc",
            ".pgpass",
            // the broker's own files, should a project contain its data directory (also hidden by identity:
            // BrokerDirectories)
            "admin.token",
            "registration-key.pk8",
            "control.sqlite3");

    private static final String[] SUFFIXES = {".pem", ".key", ".p12", ".pfx", ".keystore", ".jks", ".ppk", ".pk8"};

    private SecretPaths() {}

    /** True when a single file or directory name is secret. */
    public static boolean isSecretName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.startsWith(".env") || EXACT.contains(lower)) {
            return true;
        }
        for (String suffix : SUFFIXES) {
            if (lower.endsWith(suffix)) {
                return true;
            }
        }
        return false;
    }

    /** True when any component of {@code path} is secret; the root never is. */
    public static boolean isSecret(RelativePath path) {
        for (String component : path.components()) {
            if (isSecretName(component)) {
                return true;
            }
        }
        return false;
    }
}
