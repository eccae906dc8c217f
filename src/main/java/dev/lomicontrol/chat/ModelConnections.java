package dev.lomicontrol.chat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.ledger.Ledger;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The admin's model connections ({@link ConnectionRecord} aggregates, table {@code chat_connection}). A key is never stored, logged or
 * answered: {@link #apiKey} reads it when a request starts from the named environment variable of
 * the broker's process or from a regular 0600 file of the broker's user (no link, at most 16 KiB).
 */
public final class ModelConnections {

    private static final int MAX_KEY_FILE = 16 * 1024;

    private final Ledger store;
    private final ConnectionRecords connections;
    private final Clock clock;
    private final UnaryOperator<String> environment;

    /** {@code environment} answers a variable's value or null (the process's: {@code System::getenv}). */
    public ModelConnections(Ledger store, Clock clock, UnaryOperator<String> environment) {
        this.store = store;
        this.connections = store.jdbc().repository(ConnectionRecords.class);
        this.clock = clock;
        this.environment = environment;
    }

    /** Adds a connection; an existing id is INVALID_ARGUMENT (remove it first). */
    public ModelConnection add(ModelConnection connection) {
        return store.write(c -> {
            if (connections.existsById(connection.id())) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT, "a connection " + connection.id() + " exists; remove it first");
            }
            return store.jdbc()
                    .aggregates()
                    .insert(ConnectionRecord.of(connection, clock.millis()))
                    .connection();
        });
    }

    public List<ModelConnection> list() {
        return connections.findAllByOrderById().stream()
                .map(ConnectionRecord::connection)
                .toList();
    }

    public Optional<ModelConnection> find(String id) {
        return connections.findById(id).map(ConnectionRecord::connection);
    }

    /** Removes a connection (conversations keep the id they used); TARGET_NOT_FOUND when there is none. */
    public void remove(String id) {
        store.change(c -> {
            if (!connections.existsById(id)) {
                throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no connection " + id);
            }
            connections.deleteById(id);
        });
    }

    /**
     * The connection's key, read now; empty when the connection names none. A named variable that is
     * unset or a file that is missing, not a regular 0600 file of ours, or too large is HOST_UNQUALIFIED
     * (the message names the variable or the file, never any part of a key).
     */
    public Optional<String> apiKey(ModelConnection connection) {
        if (connection.apiKeyEnv().isPresent()) {
            String name = connection.apiKeyEnv().get();
            String value = environment.apply(name);
            if (value == null || value.isBlank()) {
                throw new LomiException(
                        ErrorCode.HOST_UNQUALIFIED,
                        "connection " + connection.id() + ": the environment variable " + name
                                + " is not set in the broker's environment");
            }
            return Optional.of(value.strip());
        }
        if (connection.apiKeyFile().isPresent()) {
            return Optional.of(
                    readKeyFile(connection.id(), Path.of(connection.apiKeyFile().get())));
        }
        return Optional.empty();
    }

    private static String readKeyFile(String id, Path file) {
        String refused = "connection " + id + ": the key file " + file;
        try {
            PosixFileAttributes attributes =
                    Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            Set<PosixFilePermission> wide =
                    EnumSet.complementOf(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
            wide.retainAll(attributes.permissions());
            if (!attributes.isRegularFile()) {
                throw new LomiException(
                        ErrorCode.HOST_UNQUALIFIED, refused + " is not a regular file (links are not followed)");
            }
            if (!wide.isEmpty()) {
                throw new LomiException(
                        ErrorCode.HOST_UNQUALIFIED, refused + " must have mode 0600 (chmod 600 " + file + ")");
            }
            if (!attributes.owner().getName().equals(System.getProperty("user.name"))) {
                throw new LomiException(ErrorCode.HOST_UNQUALIFIED, refused + " belongs to another user");
            }
            if (attributes.size() > MAX_KEY_FILE) {
                throw new LomiException(ErrorCode.HOST_UNQUALIFIED, refused + " is larger than 16 KiB");
            }
            try (SeekableByteChannel channel =
                    Files.newByteChannel(file, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
                ByteBuffer buffer = ByteBuffer.allocate(MAX_KEY_FILE + 1);
                while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                    // read to the end or one byte past the limit
                }
                buffer.flip();
                if (buffer.remaining() > MAX_KEY_FILE) {
                    throw new LomiException(ErrorCode.HOST_UNQUALIFIED, refused + " is larger than 16 KiB");
                }
                String key = StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .decode(buffer)
                        .toString()
                        .strip();
                if (key.isEmpty()) {
                    throw new LomiException(ErrorCode.HOST_UNQUALIFIED, refused + " is empty");
                }
                return key;
            }
        } catch (CharacterCodingException e) {
            throw new LomiException(ErrorCode.HOST_UNQUALIFIED, refused + " is not UTF-8 text");
        } catch (IOException e) {
            throw new LomiException(
                    ErrorCode.HOST_UNQUALIFIED,
                    refused + " cannot be read (" + e.getClass().getSimpleName() + ")");
        }
    }
}
