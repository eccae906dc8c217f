package dev.lomicontrol.editor;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.DecodedText;
import dev.lomicontrol.files.FileSnapshot;
import dev.lomicontrol.files.ProjectFiles;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.TextCodec;
import dev.lomicontrol.settings.EditorSettings;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * All open shared buffers of the broker: at most one per (project, file), at most
 * {@code maxDocuments} in all. Thread-safe.
 */
public final class Documents {

    private record Key(String projectKey, RelativePath path) {}

    private final RandomGenerator random;
    private final int maxDocuments;
    private final Map<String, Document> byId = new LinkedHashMap<>();
    private final Map<Key, Document> byPath = new HashMap<>();
    private EditorSettings settings = EditorSettings.DEFAULTS;

    /** An empty set of buffers; {@code maxDocuments} is typically 64. */
    public Documents(RandomGenerator random, int maxDocuments) {
        this.random = random;
        this.maxDocuments = maxDocuments;
    }

    /**
     * Opens (or returns the already-open buffer of) a project file. The buffer holds LF-normalized
     * text and remembers the encoding, line endings and disk revision it was loaded from. A file that
     * is not text is UNSUPPORTED_CAPABILITY; more than {@code maxDocuments} open is RESOURCE_EXHAUSTED.
     */
    public Document open(String projectKey, ProjectFiles files, RelativePath path) {
        if (projectKey == null || projectKey.isEmpty()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "projectKey is required");
        }
        Key key = new Key(projectKey, path);
        synchronized (this) {
            Document open = byPath.get(key);
            if (open != null) {
                return open;
            }
            requireRoom();
        }
        FileSnapshot snapshot = files.read(path);
        DecodedText decoded = TextCodec.decode(snapshot.bytes());
        synchronized (this) {
            Document open = byPath.get(key);
            if (open != null) {
                return open;
            }
            requireRoom();
            Document document =
                    new Document(newId(), projectKey, path, files.root(), decoded, snapshot.diskRevision(), settings);
            byId.put(document.id(), document);
            byPath.put(key, document);
            return document;
        }
    }

    public synchronized Optional<Document> find(String documentId) {
        return Optional.ofNullable(byId.get(documentId));
    }

    /** The open documents in the order they were opened. */
    public synchronized List<Document> all() {
        return List.copyOf(byId.values());
    }

    /** Drops a buffer, saved or not (the broker decides about dirty ones first); unknown is TARGET_NOT_FOUND. */
    public synchronized void close(String documentId) {
        Document document = byId.remove(documentId);
        if (document == null) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no document " + documentId);
        }
        byPath.remove(new Key(document.projectKey(), document.path()));
        document.close();
    }

    /** Puts editor settings in force for every open document and every one opened later. */
    public synchronized void applySettings(EditorSettings settings) {
        this.settings = settings;
        byId.values().forEach(d -> d.applySettings(settings));
    }

    private void requireRoom() {
        if (byId.size() >= maxDocuments) {
            throw new LomiException(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "at most " + maxDocuments + " documents may be open; close one first");
        }
    }

    private String newId() {
        String id;
        do {
            id = "doc-" + Ids.randomHex(random, 8);
        } while (byId.containsKey(id));
        return id;
    }
}
