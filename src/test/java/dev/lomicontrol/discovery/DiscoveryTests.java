package dev.lomicontrol.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.testing.Machine;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** discovery.json round-trips under the pinned key, and the helper refuses every unsafe or tampered record. */
class DiscoveryTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final Random random = new Random(42);

    @TempDir
    Path temp;

    private RegistrationKey key;
    private Path discovery;
    private ServerSocketChannel server;
    private DiscoveryRecord record;

    @BeforeEach
    void startBroker() throws IOException {
        Path store = temp.resolve("agent-control");
        key = RegistrationKey.loadOrCreate(store.resolve("registration-key.pk8"));
        discovery = store.resolve("discovery.json");
        Path socket = privateDir(temp.resolve("run-1")).resolve("control.sock");
        server = listen(socket);
        record = new DiscoveryRecord(hex(16), socket.toString(), hex(32), 1);
    }

    @AfterEach
    void stopBroker() throws IOException {
        server.close();
    }

    @Test
    void aPublishedRecordVerifiesUnderThePinnedKey() throws Exception {
        DiscoveryFile.publish(discovery, record, key);

        assertThat(DiscoveryFile.verify(discovery, key.publicKeyHex())).isEqualTo(record);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(discovery)))
                .isEqualTo("rw-------");
        try (Stream<Path> files = Files.list(discovery.getParent())) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder("registration-key.pk8", "discovery.json");
        }
    }

    @Test
    void aRestartRepublishesANewInstanceThatVerifiesWithTheSamePinnedKey() throws Exception {
        DiscoveryFile.publish(discovery, record, key);
        String pinned = key.publicKeyHex();
        Path newSocket = privateDir(temp.resolve("run-2")).resolve("control.sock");
        try (ServerSocketChannel restarted = listen(newSocket)) {
            RegistrationKey reloaded = RegistrationKey.loadOrCreate(discovery.resolveSibling("registration-key.pk8"));
            DiscoveryRecord next = new DiscoveryRecord(hex(16), newSocket.toString(), hex(32), 1);

            DiscoveryFile.publish(discovery, next, reloaded);

            assertThat(DiscoveryFile.verify(discovery, pinned)).isEqualTo(next);
        }
    }

    @Test
    void anEditedPayloadIsRefused() throws Exception {
        DiscoveryFile.publish(discovery, record, key);
        ObjectNode document = (ObjectNode) JSON.readTree(Files.readAllBytes(discovery));
        document.put("payload", document.get("payload").stringValue().replace(record.instanceId(), hex(16)));
        Files.write(discovery, JSON.writeValueAsBytes(document));

        assertRefused(discovery, "signature does not verify under the pinned key");
    }

    @Test
    void aCorruptedSignatureIsRefused() throws Exception {
        DiscoveryFile.publish(discovery, record, key);
        ObjectNode document = (ObjectNode) JSON.readTree(Files.readAllBytes(discovery));
        String signature = document.get("signature").stringValue();
        document.put("signature", (signature.charAt(0) == '0' ? "1" : "0") + signature.substring(1));
        Files.write(discovery, JSON.writeValueAsBytes(document));

        assertRefused(discovery, "signature does not verify under the pinned key");
    }

    @Test
    void aRecordSignedByAnotherKeyIsRefused() throws Exception {
        DiscoveryFile.publish(discovery, record, key);
        RegistrationKey other =
                RegistrationKey.loadOrCreate(temp.resolve("other").resolve("key.pk8"));

        assertThatThrownBy(() -> DiscoveryFile.verify(discovery, other.publicKeyHex()))
                .isInstanceOf(DiscoveryException.class)
                .hasMessageContaining("does not verify under the pinned key");
    }

    @Test
    void aSymlinkToADiscoveryFileIsRefused() throws Exception {
        Path real = privateDir(temp.resolve("elsewhere")).resolve("discovery.json");
        DiscoveryFile.publish(real, record, key);
        Files.createSymbolicLink(discovery, real);

        assertRefused(discovery, "is a symbolic link; expected a regular file");
    }

    @Test
    void aWorldReadableDiscoveryFileIsRefused() throws Exception {
        DiscoveryFile.publish(discovery, record, key);
        Files.setPosixFilePermissions(discovery, PosixFilePermissions.fromString("rw-r--r--"));

        assertRefused(discovery, "has mode 0644; expected 0600");
    }

    @Test
    void aHardLinkedDiscoveryFileIsRefused() throws Exception {
        DiscoveryFile.publish(discovery, record, key);
        Files.createLink(discovery.resolveSibling("copy.json"), discovery);

        assertRefused(discovery, "has 2 hard links; expected 1");
    }

    @Test
    void aDiscoveryFileOwnedByAnotherUserIsRefused() throws Exception {
        Machine.assumeRoot("giving the file to another user (chown) needs root");
        DiscoveryFile.publish(discovery, record, key);
        Files.setAttribute(discovery, "unix:uid", 4242, LinkOption.NOFOLLOW_LINKS);

        assertRefused(discovery, "is owned by uid 4242");
    }

    @Test
    void aParentDirectoryOpenToOthersIsRefused() throws Exception {
        DiscoveryFile.publish(discovery, record, key);
        Files.setPosixFilePermissions(discovery.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));

        assertRefused(discovery, "has mode 0755; expected 0700");
    }

    @Test
    void aSymlinkedParentDirectoryIsRefused() throws Exception {
        DiscoveryFile.publish(discovery, record, key);
        Path linkedDir = Files.createSymbolicLink(temp.resolve("linked"), discovery.getParent());

        assertRefused(linkedDir.resolve("discovery.json"), "linked is a symbolic link; expected a directory");
    }

    @Test
    void anOversizedDiscoveryFileIsRefused() throws Exception {
        DiscoveryFile.publish(discovery, record, key);
        String padded =
                new String(Files.readAllBytes(discovery), StandardCharsets.UTF_8) + " ".repeat(DiscoveryFile.MAX_BYTES);
        Files.writeString(discovery, padded);

        assertRefused(discovery, "the limit is 16384");
    }

    @Test
    void anUnknownOuterFieldIsRefused() throws Exception {
        DiscoveryFile.publish(discovery, record, key);
        ObjectNode document = (ObjectNode) JSON.readTree(Files.readAllBytes(discovery));
        document.put("extra", true);
        Files.write(discovery, JSON.writeValueAsBytes(document));

        assertRefused(discovery, "discovery file has an unknown field \"extra\"");
    }

    @Test
    void anUnknownPayloadFieldIsRefusedEvenWhenSigned() throws Exception {
        ObjectNode payload = payloadOf(record);
        payload.put("admin", true);
        writeSigned(1, JSON.writeValueAsString(payload));

        assertRefused(discovery, "payload has an unknown field \"admin\"");
    }

    @Test
    void aFutureFormatVersionIsRefused() throws Exception {
        writeSigned(2, JSON.writeValueAsString(payloadOf(record)));

        assertRefused(discovery, "version 2 is not supported");
    }

    @Test
    void aFutureIpcVersionIsRefusedEvenWhenSigned() throws Exception {
        writeSigned(1, JSON.writeValueAsString(payloadOf(record).put("ipcVersion", 2)));

        assertRefused(discovery, "ipcVersion 2 is not supported");
    }

    @Test
    void aRelativeDiscoveryPathIsRefused() {
        assertRefused(Path.of("agent-control", "discovery.json"), "must be an absolute path");
    }

    @Test
    void anEndpointThatIsARegularFileIsRefused() throws Exception {
        Path fake = Files.createFile(
                Path.of(record.endpoint()).resolveSibling("fake.sock"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        DiscoveryFile.publish(
                discovery, new DiscoveryRecord(record.instanceId(), fake.toString(), record.brokerSha256(), 1), key);

        assertRefused(discovery, "fake.sock is a regular file; expected a socket");
    }

    @Test
    void aSocketOpenToOthersIsRefused() throws Exception {
        DiscoveryFile.publish(discovery, record, key);
        Files.setPosixFilePermissions(Path.of(record.endpoint()), PosixFilePermissions.fromString("rw-rw-rw-"));

        assertRefused(discovery, "control.sock has mode 0666; expected 0600");
    }

    @Test
    void removeIfOwnedDeletesOnlyTheRecordOfTheSameInstance() throws Exception {
        DiscoveryFile.publish(discovery, record, key);

        assertThat(DiscoveryFile.removeIfOwned(discovery, hex(16))).isFalse();
        assertThat(discovery).exists();
        assertThat(DiscoveryFile.removeIfOwned(discovery, record.instanceId())).isTrue();
        assertThat(discovery).doesNotExist();
        assertThat(DiscoveryFile.removeIfOwned(discovery, record.instanceId())).isFalse();
    }

    private void assertRefused(Path file, String problem) {
        assertThatThrownBy(() -> DiscoveryFile.verify(file, key.publicKeyHex()))
                .isInstanceOf(DiscoveryException.class)
                .hasMessageContaining(problem);
    }

    /** Writes a document whose signature is valid for {@code payload}, so only the checked property fails. */
    private void writeSigned(int version, String payload) throws Exception {
        ObjectNode document = JSON.createObjectNode();
        document.put("version", version);
        document.put("payload", payload);
        document.put("signature", HexFormat.of().formatHex(key.sign(DiscoveryFile.signedMessage(payload))));
        Files.write(discovery, JSON.writeValueAsBytes(document));
        Files.setPosixFilePermissions(discovery, PosixFilePermissions.fromString("rw-------"));
    }

    private static ObjectNode payloadOf(DiscoveryRecord record) {
        ObjectNode payload = JSON.createObjectNode();
        payload.put("instanceId", record.instanceId());
        payload.put("endpoint", record.endpoint());
        payload.put("brokerSha256", record.brokerSha256());
        payload.put("ipcVersion", record.ipcVersion());
        return payload;
    }

    private static Path privateDir(Path dir) throws IOException {
        return Files.createDirectories(
                dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    private static ServerSocketChannel listen(Path socket) throws IOException {
        ServerSocketChannel channel =
                ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(socket));
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        return channel;
    }

    private String hex(int bytes) {
        byte[] buffer = new byte[bytes];
        random.nextBytes(buffer);
        return HexFormat.of().formatHex(buffer);
    }
}
