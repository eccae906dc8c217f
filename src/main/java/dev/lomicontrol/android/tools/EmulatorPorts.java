package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AdbBridge;
import dev.lomicontrol.android.AttachedDevice;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The console ports of the emulators this broker starts: an even port N in 5554..5682 (the range
 * the SDK's {@code emulator -port} takes) whose pair N, N+1 is free on 127.0.0.1 now, that adb lists
 * no {@code emulator-N} for, and that no other boot of this broker holds. The search starts at a
 * random pair, so two boots started at once (by this broker or another) rarely reach for the same one.
 */
final class EmulatorPorts {

    static final int FIRST = 5554;
    static final int LAST = 5682;

    private static final Duration LISTING = Duration.ofSeconds(5);

    private final Set<Integer> held = ConcurrentHashMap.newKeySet();
    private final SecureRandom random = new SecureRandom();

    /** A free console port, held until {@link #release}; RESOURCE_EXHAUSTED when every pair is taken. */
    int reserve(AdbBridge bridge) {
        Set<Integer> listed = new HashSet<>();
        for (AttachedDevice device : bridge.devices(LISTING)) {
            if (device.serial().matches("emulator-\\d{4,5}")) {
                listed.add(Integer.parseInt(device.serial().substring("emulator-".length())));
            }
        }
        int pairs = (LAST - FIRST) / 2 + 1;
        int first = random.nextInt(pairs);
        for (int i = 0; i < pairs; i++) {
            int port = FIRST + 2 * ((first + i) % pairs);
            if (listed.contains(port) || !held.add(port)) {
                continue;
            }
            if (free(port) && free(port + 1)) {
                return port;
            }
            held.remove(port);
        }
        throw new LomiException(
                ErrorCode.RESOURCE_EXHAUSTED,
                "no console port pair is free in " + FIRST + ".." + LAST + "; stop an emulator and start again");
    }

    void release(int port) {
        held.remove(port);
    }

    private static boolean free(int port) {
        try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
