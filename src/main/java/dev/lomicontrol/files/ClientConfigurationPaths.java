package dev.lomicontrol.files;

import dev.lomicontrol.core.ClientConfiguration;

/**
 * The write rule for MCP/IDE client configuration ({@link ClientConfiguration#PROJECT_ENTRIES}):
 * agents read it like any file, but nothing the broker does for them writes it. Checked per path
 * component, case-insensitively, as {@link SecretPaths} are: a {@code .vscode} below the root is
 * what a client opened on that folder runs.
 */
public final class ClientConfigurationPaths {

    private ClientConfigurationPaths() {}

    /** True when any component of {@code path} is client configuration; the root never is. */
    public static boolean isClientConfiguration(RelativePath path) {
        for (String component : path.components()) {
            if (ClientConfiguration.isClientConfigurationName(component)) {
                return true;
            }
        }
        return false;
    }

    /** SCOPE_DENIED, naming the path and what to do instead, when {@code path} is client configuration. */
    public static void requireWritable(RelativePath path) {
        if (isClientConfiguration(path)) {
            throw ClientConfiguration.writeRefused(path.toString());
        }
    }
}
