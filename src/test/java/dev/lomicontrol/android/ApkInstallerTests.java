package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our streamed install ({@code exec:cmd package install -S N}, the bytes on the stream) through the
 * real adb server to the test device, which keeps what it received and answers in the package
 * installer's format. They prove the bytes and the digest checks through the real adb — not that
 * Android installs anything.
 */
class ApkInstallerTests {

    static final Duration CALL = Duration.ofSeconds(20);

    @TempDir
    static Path scratch;

    static PrivateAdbServer server;
    static FakeAdbd device;
    static ApkInstaller installer;

    @BeforeAll
    static void attachTheTestDevice() throws IOException {
        server = PrivateAdbServer.prepare(scratch);
        device = FakeAdbd.open();
        server.connect(device, DeviceState.DEVICE);
        installer = new ApkInstaller(server.bridge());
    }

    @AfterAll
    static void stop() throws IOException {
        device.close();
        server.close();
    }

    static Path apk(String name, int size, long seed) throws IOException {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return Files.write(scratch.resolve(name), bytes);
    }

    static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @Test
    void theDeviceReceivesTheExactBytesOfAnApkSpanningManyPackets() throws Exception {
        Path apk = apk("big.apk", 700_001, 1);
        byte[] bytes = Files.readAllBytes(apk);

        assertThat(installer.install(device.serial(), apk, sha256(bytes).toUpperCase(), CALL))
                .isEqualTo(new ApkInstaller.Outcome(true, Optional.empty()));
        assertThat(device.installs.get(device.installs.size() - 1)).isEqualTo(bytes);
        List<List<String>> commands = device.shellCommands();
        assertThat(commands.get(commands.size() - 1))
                .containsExactly("cmd", "package", "install", "-S", Integer.toString(bytes.length));
    }

    @Test
    void aWrongSha256IsArtifactInvalidAndNothingReachesTheDevice() throws Exception {
        Path apk = apk("wrong.apk", 10_000, 2);
        int services = device.services().size();
        assertThatThrownBy(() -> installer.install(device.serial(), apk, "0".repeat(64), CALL))
                .isInstanceOfSatisfying(LomiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.ARTIFACT_INVALID);
                    assertThat(e.getMessage()).contains("nothing was installed");
                });
        assertThat(device.services()).hasSize(services);
    }

    @Test
    void theInstallersFailureIsNotInstalledWithItsReason() throws Exception {
        Path apk = apk("old.apk", 5_000, 3);
        String reason =
                "INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code 1 is older than current 2";
        device.onInstall((argv, bytes) -> ("Failure [" + reason + "]\n").getBytes(StandardCharsets.UTF_8));
        try {
            assertThat(installer.install(device.serial(), apk, sha256(Files.readAllBytes(apk)), CALL))
                    .isEqualTo(new ApkInstaller.Outcome(false, Optional.of(reason)));
        } finally {
            device.onInstall((argv, bytes) -> "Success\n".getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void anAnswerThatIsNeitherSuccessNorFailureIsOutcomeUnknown() {
        assertThatThrownBy(() -> ApkInstaller.outcome("cmd: Can't find service: package\n"))
                .isInstanceOfSatisfying(LomiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.OUTCOME_UNKNOWN);
                    assertThat(e.getMessage()).contains("Can't find service");
                });
    }

    @Test
    void aStreamWhoseBytesNoLongerMatchNeverGivesItsLastChunk() throws Exception {
        byte[] bytes = new byte[3 * HeldBackStream.CHUNK + 10];
        new Random(4).nextBytes(bytes);
        String other = sha256(new byte[] {1});
        ByteArrayOutputStream given = new ByteArrayOutputStream();
        try (InputStream held =
                new HeldBackStream(new ByteArrayInputStream(bytes), MessageDigest.getInstance("SHA-256"), other)) {
            byte[] buffer = new byte[1000];
            assertThatThrownBy(() -> {
                        for (int n; (n = held.read(buffer, 0, buffer.length)) >= 0; ) {
                            given.write(buffer, 0, n);
                        }
                    })
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("changed while it was sent");
        }
        assertThat(given.size()).isEqualTo(3 * HeldBackStream.CHUNK);

        try (InputStream held = new HeldBackStream(
                new ByteArrayInputStream(bytes), MessageDigest.getInstance("SHA-256"), sha256(bytes))) {
            assertThat(held.readAllBytes()).isEqualTo(bytes);
        }
    }

    @Test
    void aStalledDeviceEndsTheInstallByItsDeadline() throws Exception {
        Path apk = apk("stalled.apk", 200_000, 5);
        try (FakeAdbd hung = FakeAdbd.open()) {
            server.connect(hung, DeviceState.DEVICE);
            hung.stall();
            long start = System.nanoTime();
            assertThatThrownBy(() -> installer.install(
                            hung.serial(), apk, sha256(Files.readAllBytes(apk)), Duration.ofSeconds(2)))
                    .isInstanceOfSatisfying(
                            LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(6));
            assertThat(hung.installs).isEmpty();
        }
    }
}
