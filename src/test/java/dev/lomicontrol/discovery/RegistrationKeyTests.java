package dev.lomicontrol.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.testing.Machine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPairGenerator;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registration key persists across restarts; an unusable key file is refused and left exactly as it was. */
class RegistrationKeyTests {

    private static final byte[] MESSAGE = "hello".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path temp;

    @Test
    void aKeyIsCreated0600InA0700DirectoryAndReloadedIdenticallyOnTheNextStart() throws Exception {
        Path file = temp.resolve("agent-control").resolve("registration-key.pk8");

        RegistrationKey created = RegistrationKey.loadOrCreate(file);
        byte[] stored = Files.readAllBytes(file);
        RegistrationKey reloaded = RegistrationKey.loadOrCreate(file);

        assertThat(mode(file.getParent())).isEqualTo("rwx------");
        assertThat(mode(file)).isEqualTo("rw-------");
        assertThat(created.publicKeyHex()).matches("[0-9a-f]{64}").isEqualTo(reloaded.publicKeyHex());
        assertThat(Files.readAllBytes(file)).isEqualTo(stored);
        assertThat(RegistrationKey.verify(created.publicKeyHex(), MESSAGE, reloaded.sign(MESSAGE)))
                .isTrue();
    }

    @Test
    void aSignatureVerifiesOnlyUnderItsOwnKeyAndMalformedInputIsFalse() {
        RegistrationKey key = RegistrationKey.loadOrCreate(temp.resolve("a").resolve("key.pk8"));
        RegistrationKey other = RegistrationKey.loadOrCreate(temp.resolve("b").resolve("key.pk8"));
        byte[] signature = key.sign(MESSAGE);

        assertThat(RegistrationKey.verify(key.publicKeyHex(), MESSAGE, signature))
                .isTrue();
        assertThat(RegistrationKey.verify(key.publicKeyHex().toUpperCase(), MESSAGE, signature))
                .isTrue();
        assertThat(RegistrationKey.verify(other.publicKeyHex(), MESSAGE, signature))
                .isFalse();
        assertThat(RegistrationKey.verify(key.publicKeyHex(), "hellO".getBytes(StandardCharsets.UTF_8), signature))
                .isFalse();
        assertThat(RegistrationKey.verify(key.publicKeyHex().substring(2), MESSAGE, signature))
                .isFalse();
        assertThat(RegistrationKey.verify("zz" + key.publicKeyHex().substring(2), MESSAGE, signature))
                .isFalse();
        assertThat(RegistrationKey.verify(null, MESSAGE, signature)).isFalse();
        assertThat(RegistrationKey.verify(key.publicKeyHex(), MESSAGE, new byte[63]))
                .isFalse();
        assertThat(RegistrationKey.verify(key.publicKeyHex(), MESSAGE, new byte[64]))
                .isFalse();
    }

    @Test
    void aGarbageKeyFileIsRefusedAndPreserved() throws Exception {
        Path file = privateKeyFile("not a key".getBytes(StandardCharsets.US_ASCII));

        assertRefusedAndPreserved(file, "not a valid Ed25519 PKCS#8 key");
    }

    @Test
    void aKeyFileWithTrailingBytesIsRefusedAndPreserved() throws Exception {
        Path file = validKeyFile();
        byte[] valid = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(valid, valid.length + 1));

        assertRefusedAndPreserved(file, "but the file has " + (valid.length + 1));
    }

    @Test
    void anEd448KeyFileIsRefusedAndPreserved() throws Exception {
        Path file = privateKeyFile(KeyPairGenerator.getInstance("Ed448")
                .generateKeyPair()
                .getPrivate()
                .getEncoded());

        assertRefusedAndPreserved(file, "not a valid Ed25519 PKCS#8 key");
    }

    @Test
    void aWorldReadableKeyFileIsRefusedAndPreserved() throws Exception {
        Path file = validKeyFile();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertRefusedAndPreserved(file, "has mode 0644; expected 0600");
        assertThat(mode(file)).isEqualTo("rw-r--r--");
    }

    @Test
    void aSymlinkedKeyFileIsRefusedAndPreserved() throws Exception {
        Path target = keyIn(temp.resolve("elsewhere"));
        Path link = Files.createDirectories(
                        temp.resolve("agent-control"),
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
                .resolve("registration-key.pk8");
        Files.createSymbolicLink(link, target);
        byte[] targetBytes = Files.readAllBytes(target);

        assertRefusedAndPreserved(link, "is a symbolic link; expected a regular file");
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readSymbolicLink(link)).isEqualTo(target);
        assertThat(Files.readAllBytes(target)).isEqualTo(targetBytes);
    }

    @Test
    void aHardLinkedKeyFileIsRefusedAndPreserved() throws Exception {
        Path file = validKeyFile();
        Files.createLink(file.resolveSibling("second-name.pk8"), file);

        assertRefusedAndPreserved(file, "has 2 hard links; expected 1");
    }

    @Test
    void anOversizedKeyFileIsRefusedAndPreserved() throws Exception {
        Path file = privateKeyFile(new byte[RegistrationKey.MAX_BYTES + 1]);

        assertRefusedAndPreserved(file, "is 1025 bytes; the limit is 1024");
    }

    @Test
    void aKeyFileOwnedByAnotherUserIsRefusedAndPreserved() throws Exception {
        Machine.assumeRoot("giving the file to another user (chown) needs root");
        Path file = validKeyFile();
        Files.setAttribute(file, "unix:uid", 4242, LinkOption.NOFOLLOW_LINKS);

        assertRefusedAndPreserved(file, "is owned by uid 4242, not by this user (uid 0)");
    }

    @Test
    void aKeyDirectoryOpenToOthersIsRefused() throws Exception {
        Path file = validKeyFile();
        Files.setPosixFilePermissions(file.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));

        assertRefusedAndPreserved(file, "has mode 0755; expected 0700");
    }

    private Path validKeyFile() {
        return keyIn(temp.resolve("agent-control"));
    }

    private static Path keyIn(Path dir) {
        Path file = dir.resolve("registration-key.pk8");
        RegistrationKey.loadOrCreate(file);
        return file;
    }

    private Path privateKeyFile(byte[] bytes) throws Exception {
        Path dir = Files.createDirectories(
                temp.resolve("agent-control"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path file = Files.write(dir.resolve("registration-key.pk8"), bytes);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    private static void assertRefusedAndPreserved(Path file, String problem) throws Exception {
        byte[] before = Files.readAllBytes(file);

        assertThatThrownBy(() -> RegistrationKey.loadOrCreate(file))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE))
                .hasMessageContaining(file.getFileName().toString())
                .hasMessageContaining(problem);
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    private static String mode(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }
}
