package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our emulator lifecycle — argv, process group, boot polling through the real adb server, the
 * console's kill with the auth token, then signals — against a stand-in {@code emulator} script
 * the test writes: it starts a child in its process group (as the emulator starts qemu) and a JVM
 * ({@link StandInEmulator}) serving a test device and console that register with the real adb
 * server as {@code emulator-N}. They prove our processes and bookkeeping, not the SDK's emulator.
 */
class EmulatorsTests {

    static final Duration BOOT = Duration.ofSeconds(60);
    static final String TOKEN = "standin-token-7f3a";

    @TempDir
    static Path scratch;

    static PrivateAdbServer server;
    static Path tokenFile;

    @BeforeAll
    static void startTheServer() throws IOException {
        server = PrivateAdbServer.prepare(scratch);
        // where the real adb client's emu reads it: the .emulator_console_auth_token of its HOME
        tokenFile = Files.writeString(server.home().resolve(".emulator_console_auth_token"), TOKEN + "\n");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** A stand-in SDK in its own folder; {@code boot} -1 never completes the boot. */
    record StandIn(Path dir, Emulators emulators) {
        long childPid() throws IOException {
            return Long.parseLong(Files.readString(dir.resolve("child.pid")).strip());
        }

        List<String> read(String file) throws IOException {
            return Files.readAllLines(dir.resolve(file));
        }
    }

    static StandIn standIn(String name, String mode, long bootMillis) throws IOException {
        Path dir = Files.createDirectories(scratch.resolve(name));
        return new StandIn(dir, emulators(dir, StandInEmulator.script(dir, mode, bootMillis, TOKEN)));
    }

    static Emulators emulators(Path dir, String script) throws IOException {
        Path emulator = Files.writeString(dir.resolve("emulator"), script, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(emulator, PosixFilePermissions.fromString("rwx------"));
        return new Emulators(server.bridge(), emulator, tokenFile, dir.resolve("logs"), Duration.ofMillis(100));
    }

    /** An even console port whose pair is free, away from the ports adb scans on its own. */
    static int consolePort() throws IOException {
        Random random = new Random();
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = 5600 + 2 * random.nextInt(40);
            try (ServerSocket a = new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
                    ServerSocket b = new ServerSocket(port + 1, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // try another pair
            }
        }
        throw new IOException("no free even port pair in 5600..5680");
    }

    static void assertGone(long pid) {
        await().atMost(Duration.ofSeconds(15))
                .until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
    }

    @Test
    void startBootsThroughTheRealAdbAndStopKillsThroughTheConsoleWithTheToken() throws IOException {
        StandIn standIn = standIn("normal", "normal", 800);
        int port = consolePort();
        Emulators.Booted booted = standIn.emulators().start("Pixel_8_API_35", port, BOOT);

        assertThat(booted.serial()).isEqualTo("emulator-" + port);
        assertThat(booted.generation()).matches("[0-9a-f]{32}");
        assertThat(server.bridge().devices(Duration.ofSeconds(5)))
                .anyMatch(d -> d.serial().equals(booted.serial()) && d.state() == DeviceState.DEVICE);
        assertThat(standIn.read("argv"))
                .containsExactly(
                        "-avd",
                        "Pixel_8_API_35",
                        "-port",
                        Integer.toString(port),
                        "-no-window",
                        "-no-audio",
                        "-no-boot-anim",
                        "-no-snapshot-save");
        long child = standIn.childPid();

        assertThat(standIn.emulators().stop(booted, Duration.ofSeconds(30))).isEqualTo(Emulators.Ended.CONSOLE_KILL);
        assertThat(booted.process().isAlive()).isFalse();
        assertThat(standIn.read("console")).containsSubsequence("auth " + TOKEN, "kill");
        assertGone(child);

        Emulators.Booted again = standIn.emulators().start("Pixel_8_API_35", port, BOOT);
        assertThat(again.generation()).isNotEqualTo(booted.generation());
        assertThat(standIn.emulators().stop(again, Duration.ofSeconds(30))).isEqualTo(Emulators.Ended.CONSOLE_KILL);
    }

    @Test
    void withoutAnAdbToRunStopTellsTheConsoleDirectlyWithTheTokenFile() throws IOException {
        StandIn standIn = standIn("direct", "normal", 0);
        Emulators.Booted booted = standIn.emulators().start("Direct", consolePort(), BOOT);
        Emulators direct = new Emulators(
                new AdbBridge(server.port(), Optional.empty(), AdbTimeouts.DEFAULT),
                standIn.dir().resolve("emulator"),
                tokenFile,
                standIn.dir().resolve("logs"),
                Duration.ofMillis(100));

        assertThat(direct.stop(booted, Duration.ofSeconds(30))).isEqualTo(Emulators.Ended.CONSOLE_KILL);
        assertThat(standIn.read("console")).containsSubsequence("auth " + TOKEN, "kill");
        assertGone(standIn.childPid());
    }

    @Test
    void anEmulatorThatIgnoresTheConsoleEndsBySignalsToItsProcessGroup() throws IOException {
        StandIn lingers = standIn("lingers", "ignores-kill", 0);
        Emulators.Booted booted = lingers.emulators().start("Lingers", consolePort(), BOOT);
        long child = lingers.childPid();
        assertThat(lingers.emulators().stop(booted, Duration.ofSeconds(4))).isEqualTo(Emulators.Ended.SIGTERM);
        assertGone(child);

        StandIn stubborn = standIn("stubborn", "ignores-term", 0);
        Emulators.Booted hard = stubborn.emulators().start("Stubborn", consolePort(), BOOT);
        long stubbornChild = stubborn.childPid();
        assertThat(stubborn.emulators().stop(hard, Duration.ofSeconds(4))).isEqualTo(Emulators.Ended.SIGKILL);
        assertThat(hard.process().isAlive()).isFalse();
        assertGone(stubbornChild);
    }

    @Test
    void aBootThatNeverCompletesEndsByItsDeadlineAndLeavesNoProcess() throws IOException {
        StandIn never = standIn("never", "normal", -1);
        long start = System.nanoTime();
        assertThatThrownBy(() -> never.emulators().start("Never", consolePort(), Duration.ofSeconds(6)))
                .isInstanceOfSatisfying(LomiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED);
                    assertThat(e.getMessage()).contains("sys.boot_completed");
                });
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
        assertGone(never.childPid());
    }

    @Test
    void anEmulatorThatExitsBeforeBootingSaysWhatItsLogSaid() throws IOException {
        Path dir = Files.createDirectories(scratch.resolve("broken"));
        Emulators broken =
                emulators(dir, "#!/bin/sh\necho 'PANIC: Missing emulator engine program for x86_64 CPU.'\nexit 1\n");
        assertThatThrownBy(() -> broken.start("Broken", consolePort(), BOOT))
                .isInstanceOfSatisfying(LomiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_CAPABILITY);
                    assertThat(e.getMessage()).contains("PANIC: Missing emulator engine program");
                });
    }

    @Test
    void argumentsThatAreNotAnAvdNameOrAConsolePortAreRefused() throws IOException {
        Emulators emulators = standIn("argv", "normal", 0).emulators();
        assertThatThrownBy(() -> emulators.argv("-writable-system", 5554))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        assertThatThrownBy(() -> emulators.argv("ok", 5555))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }
}
