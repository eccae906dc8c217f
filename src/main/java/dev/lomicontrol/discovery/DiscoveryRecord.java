package dev.lomicontrol.discovery;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * What discovery.json's signed payload says: the broker instance, its socket, the SHA-256 of its
 * TLS certificate and the private IPC version. Construction validates every field (in the order
 * ipcVersion, instanceId, brokerSha256, endpoint) and refuses with INVALID_ARGUMENT.
 */
public record DiscoveryRecord(String instanceId, String endpoint, String brokerSha256, int ipcVersion) {

    public static final int IPC_VERSION = 1;

    public DiscoveryRecord {
        if (ipcVersion != IPC_VERSION) {
            throw invalid("ipcVersion " + ipcVersion + " is not supported; expected " + IPC_VERSION);
        }
        requireLowerHex(instanceId, 32, "instanceId");
        requireLowerHex(brokerSha256, 64, "brokerSha256");
        if (!isAbsolutePath(endpoint)) {
            throw invalid("endpoint must be an absolute path, got " + endpoint);
        }
    }

    private static void requireLowerHex(String value, int length, String what) {
        if (value == null
                || value.length() != length
                || !value.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            throw invalid(what + " must be " + length + " lower-case hex characters");
        }
    }

    private static boolean isAbsolutePath(String value) {
        try {
            return value != null && !value.isEmpty() && Path.of(value).isAbsolute();
        } catch (InvalidPathException e) {
            return false;
        }
    }

    private static LomiException invalid(String message) {
        return new LomiException(ErrorCode.INVALID_ARGUMENT, message);
    }
}
