package dev.lomicontrol.discovery;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * discovery.json (SPEC §3.2–3.3): {@code {version:1, payload:"<JSON of a DiscoveryRecord>",
 * signature:"<hex Ed25519 over DOMAIN_TAG + payload UTF-8 bytes>"}}, at most 16 KiB, 0600 in a
 * 0700 directory. The broker publishes and removes it; the helper verifies it before trusting it.
 */
public final class DiscoveryFile {

    public static final int MAX_BYTES = 16 * 1024;
    /** Domain separation tag prepended to the payload bytes before signing. */
    public static final String DOMAIN_TAG = "lomi-control-discovery-v1\0";

    private DiscoveryFile() {}

    /**
     * Signs {@code record} with {@code key} and replaces {@code file} atomically (temp file in the same
     * directory, fsync, rename, fsync directory), mode 0600. The parent directory is created 0700 when
     * missing and must otherwise be 0700 and ours (STORAGE_UNAVAILABLE); a document over
     * {@link #MAX_BYTES} is refused with INVALID_ARGUMENT.
     */
    public static void publish(Path file, DiscoveryRecord record, RegistrationKey key) {
        Path absolute = file.toAbsolutePath();
        PrivatePaths.ensurePrivateDirectory(absolute, "discovery file " + absolute);
        String payload = DiscoveryJson.payload(record);
        byte[] signature;
        try {
            signature = key.sign(signedMessage(payload));
        } catch (CharacterCodingException e) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "the discovery record is not valid Unicode", e);
        }
        byte[] document = DiscoveryJson.document(payload, HexFormat.of().formatHex(signature));
        if (document.length > MAX_BYTES) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "discovery document is " + document.length + " bytes; the limit is " + MAX_BYTES);
        }
        PrivatePaths.replaceAtomically(absolute, document);
    }

    /**
     * Deletes {@code file} only while it still names {@code instanceId}; a missing, unsafe, unreadable
     * or foreign file (another broker may have replaced it) is left alone. Returns whether it deleted.
     */
    public static boolean removeIfOwned(Path file, String instanceId) {
        Path absolute = file.toAbsolutePath();
        if (!namedInstance(absolute).equals(Optional.of(instanceId))) {
            return false;
        }
        try {
            Files.delete(absolute);
            PrivatePaths.fsyncDirectory(PrivatePaths.parentOf(absolute));
            return true;
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            throw PrivatePaths.storage("cannot remove " + absolute + ": " + e.getMessage(), e);
        }
    }

    /**
     * The helper's checks, in order; the first failure is thrown with a message naming it: the path is
     * absolute; its parent is a real 0700 directory of ours; the file (never followed through a link)
     * is regular, 0600, one link, ours, at most 16 KiB; the JSON is exactly {version, payload,
     * signature}; version is 1; the pinned key is 64 hex; the signature is 128 hex and verifies over
     * DOMAIN_TAG + payload; the payload is exactly {instanceId, endpoint, brokerSha256, ipcVersion}
     * with valid values; the endpoint is a 0600 socket of ours in a 0700 directory of ours.
     */
    public static DiscoveryRecord verify(Path file, String pinnedKeyHex) throws DiscoveryException {
        if (file == null || !file.isAbsolute() || file.getParent() == null) {
            throw new DiscoveryException("discovery file path " + file + " must be an absolute path of a file");
        }
        PrivatePaths.requirePrivateDirectory(file.getParent());
        DiscoveryJson.Envelope envelope = DiscoveryJson.envelope(PrivatePaths.readPrivateFile(file, MAX_BYTES));
        if (envelope.version() != DiscoveryJson.FORMAT_VERSION) {
            throw new DiscoveryException("discovery file version " + envelope.version() + " is not supported; expected "
                    + DiscoveryJson.FORMAT_VERSION);
        }
        requireSignature(envelope, pinnedKeyHex);
        DiscoveryRecord record = DiscoveryJson.record(envelope.payload());
        PrivatePaths.requirePrivateSocket(Path.of(record.endpoint()));
        return record;
    }

    private static void requireSignature(DiscoveryJson.Envelope envelope, String pinnedKeyHex)
            throws DiscoveryException {
        if (!RegistrationKey.isHex(pinnedKeyHex, 64)) {
            throw new DiscoveryException(
                    "the pinned discovery key must be 64 hex characters (a raw Ed25519 public key)");
        }
        if (!RegistrationKey.isHex(envelope.signature(), 128)) {
            throw new DiscoveryException("discovery signature must be 128 hex characters");
        }
        byte[] message;
        try {
            message = signedMessage(envelope.payload());
        } catch (CharacterCodingException e) {
            throw new DiscoveryException("discovery payload is not valid Unicode", e);
        }
        if (!RegistrationKey.verify(pinnedKeyHex, message, HexFormat.of().parseHex(envelope.signature()))) {
            throw new DiscoveryException("discovery signature does not verify under the pinned key");
        }
    }

    /** DOMAIN_TAG followed by the payload's UTF-8 bytes; unpaired surrogates are refused, never replaced. */
    static byte[] signedMessage(String payload) throws CharacterCodingException {
        ByteBuffer encoded = StandardCharsets.UTF_8
                .newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .encode(CharBuffer.wrap(DOMAIN_TAG + payload));
        return Arrays.copyOf(encoded.array(), encoded.limit());
    }

    /** The instanceId a safe, well-formed discovery file names; empty for anything else. */
    private static Optional<String> namedInstance(Path file) {
        try {
            DiscoveryJson.Envelope envelope = DiscoveryJson.envelope(PrivatePaths.readPrivateFile(file, MAX_BYTES));
            return Optional.of(DiscoveryJson.record(envelope.payload()).instanceId());
        } catch (DiscoveryException e) {
            return Optional.empty();
        }
    }
}
