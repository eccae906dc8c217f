package dev.lomicontrol.broker;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.DecodedText;
import dev.lomicontrol.files.Entry;
import dev.lomicontrol.files.EntryKind;
import dev.lomicontrol.files.FileSnapshot;
import dev.lomicontrol.files.Listing;
import dev.lomicontrol.files.Mutation;
import dev.lomicontrol.files.ProjectFiles;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.SearchMatch;
import dev.lomicontrol.files.SearchQuery;
import dev.lomicontrol.files.SearchResult;
import dev.lomicontrol.files.TextCodec;
import dev.lomicontrol.files.TextPage;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * File tools (SPEC §10 "Files"): list, read and search are reads; {@code lomi_files_mutate} is a
 * durable operation whose expected revisions are checked before the receipt (stale → refused, no
 * receipt) and again inside {@code ProjectFiles} just before the change.
 */
final class FileCalls {

    static final int DEFAULT_LIST = 100;
    static final int MAX_LIST = 200;
    private static final Pattern CURSOR = Pattern.compile("([0-9a-f]{16}):([0-9]{1,9})");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final WorkspaceCalls workspaces;
    private final ProjectFolders folders;
    private final OperationRunner runner;
    private final Layout layout;
    private final Path recoveryRoot;

    FileCalls(WorkspaceCalls workspaces, ProjectFolders folders, OperationRunner runner, Layout layout, Path recoveryRoot) {
        this.workspaces = workspaces;
        this.folders = folders;
        this.runner = runner;
        this.layout = layout;
        this.recoveryRoot = recoveryRoot;
    }

    ObjectNode list(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "relativeDirectory", "limit", "cursor");
        Resolved target = resolve(session, args);
        RelativePath directory = RelativePath.parse(args.optionalString("relativeDirectory").orElse(""));
        int limit = args.integer("limit", 1, MAX_LIST, OptionalInt.of(DEFAULT_LIST));
        Listing listing = target.files.list(directory);
        int offset = 0;
        if (args.has("cursor")) {
            Matcher matcher = CURSOR.matcher(args.requiredString("cursor"));
            if (!matcher.matches()) {
                throw Arguments.invalid("cursor is not a files_list cursor");
            }
            if (!listing.directoryRevision().startsWith(matcher.group(1))) {
                throw new LomiException(ErrorCode.CURSOR_EXPIRED, "the directory changed since this cursor; list again without a cursor");
            }
            offset = Integer.parseInt(matcher.group(2));
        }
        List<Entry> entries = listing.entries();
        int end = Math.min(entries.size(), offset + limit);
        ObjectNode data = JSON.objectNode();
        data.put("kind", "files_list");
        data.put("workspaceId", target.listed.workspace().id().value());
        data.put("relativeDirectory", directory.toString());
        data.put("directoryRevision", listing.directoryRevision());
        ArrayNode items = data.putArray("entries");
        for (Entry entry : entries.subList(Math.min(offset, end), end)) {
            ObjectNode item = items.addObject();
            item.put("name", entry.name());
            item.put("relativePath", entry.relativePath());
            item.put("kind", entry.kind().wire());
            item.put("byteLength", Long.toString(entry.byteLength()));
        }
        data.put("filtered", listing.filtered());
        boolean hasMore = end < entries.size();
        data.put("hasMore", hasMore);
        if (hasMore) {
            data.put("nextCursor", listing.directoryRevision().substring(0, 16) + ":" + end);
        } else {
            data.putNull("nextCursor");
        }
        return data;
    }

    ObjectNode read(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "relativePath", "startUtf16", "maxChars", "expectedDiskRevision");
        Resolved target = resolve(session, args);
        RelativePath path = RelativePath.parse(args.requiredString("relativePath"));
        int start = args.integer("startUtf16", 0, Integer.MAX_VALUE, OptionalInt.of(0));
        int maxChars = args.integer("maxChars", 2, 8192, OptionalInt.of(4096));
        Optional<String> expected = args.optionalString("expectedDiskRevision").map(FileCalls::sha256);
        if (start > 0 && expected.isEmpty()) {
            throw Arguments.invalid("reading from startUtf16 > 0 needs expectedDiskRevision (the diskRevision of the first page)");
        }
        FileSnapshot snapshot = target.files.read(path);
        if (expected.isPresent() && !expected.get().equals(snapshot.diskRevision())) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "the file changed since diskRevision " + expected.get() + "; read it again from the start");
        }
        DecodedText decoded = TextCodec.decode(snapshot.bytes());
        TextPage page = TextPage.of(decoded.text(), start, maxChars);
        ObjectNode data = JSON.objectNode();
        data.put("kind", "file_text");
        data.put("workspaceId", target.listed.workspace().id().value());
        data.put("relativePath", path.toString());
        data.put("text", page.text());
        data.put("startUtf16", page.startUtf16());
        data.put("nextUtf16", page.nextUtf16());
        data.put("totalUtf16", page.totalUtf16());
        data.put("truncated", page.truncated());
        data.put("diskRevision", snapshot.diskRevision());
        data.put("encoding", decoded.encoding().wire());
        data.put("lineEndings", decoded.lineEndings().wire());
        return data;
    }

    ObjectNode search(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "relativeDirectory", "query", "limit");
        Resolved target = resolve(session, args);
        RelativePath directory = RelativePath.parse(args.optionalString("relativeDirectory").orElse(""));
        Arguments q = args.object("query", "text", "regex", "caseSensitive", "wholeWord", "include", "exclude");
        String text = q.requiredString("text");
        if (text.isEmpty() || text.length() > 1024) {
            throw Arguments.invalid("query.text is 1-1024 characters");
        }
        SearchQuery query = new SearchQuery(text, q.bool("regex", false), q.bool("caseSensitive", false), q.bool("wholeWord", false),
                q.strings("include", 32), q.strings("exclude", 32));
        int limit = args.integer("limit", 1, 256, OptionalInt.of(100));
        SearchResult result = target.files.search(directory, query, limit);
        ObjectNode data = JSON.objectNode();
        data.put("kind", "files_search");
        data.put("workspaceId", target.listed.workspace().id().value());
        ArrayNode matches = data.putArray("matches");
        for (SearchMatch match : result.matches()) {
            ObjectNode item = matches.addObject();
            item.put("relativePath", match.relativePath());
            item.put("diskRevision", match.diskRevision());
            item.put("line", match.line());
            item.put("columnUtf16", match.columnUtf16());
            item.put("lengthUtf16", match.lengthUtf16());
            item.put("preview", match.preview());
        }
        data.put("truncated", result.truncated());
        data.put("filesScanned", result.filesScanned());
        data.put("skipped", result.skipped());
        return data;
    }

    /** create, rename, move, rename_directory, move_directory or trash — never overwriting, never following links. */
    ObjectNode mutate(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "operation", "expectedRevision"));
        Resolved target = resolve(session, args);
        Arguments op = args.object("operation", "type", "relativePath", "kind", "newName", "targetRelativePath", "expectedParentRevision",
                "expectedDiskRevision", "expectedDirectoryRevision", "expectedEntryRevision", "expectedTargetParentRevision");
        String type = op.choice("type", Optional.empty(), "create", "rename", "move", "rename_directory", "move_directory", "trash");
        String scope = type.equals("create") ? "files.create" : type.equals("trash") ? "files.trash" : "files.rename";
        if (!session.grant().allows(scope)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "files_mutate " + type + " needs the " + scope + " scope");
        }
        Change change = change(type, op);
        long expected = Revisions.expected(args);
        ProjectFiles files = target.files;
        return runner.immediate(LayoutCalls.request(session, "lomi_files_mutate", arguments, args, target.listed, type + ":" + change.path, expected), () -> {
            Revisions.require(expected, layout.revision());
            change.precheck(files);
        }, operation -> {
            Mutation done = change.apply(files, recoveryRoot, operation.id().value());
            ObjectNode result = JSON.objectNode();
            result.put("kind", "files_mutated");
            result.put("type", type);
            result.put("relativePath", done.relativePath());
            result.put("entryKind", done.kind().wire());
            WireJson.put(result, "diskRevision", done.diskRevision());
            result.put("parentRevision", done.parentRevision());
            WireJson.put(result, "directoryRevision", done.directoryRevision());
            WireJson.put(result, "recoveryPath", type.equals("trash") ? Optional.of(recoveryRoot.resolve(operation.id().value()).toString()) : Optional.empty());
            return result;
        });
    }

    /** The granted workspace and its project's pinned files. */
    Resolved resolve(Session session, Arguments args) {
        WorkspaceCalls.Listed listed = workspaces.resolve(session, new dev.lomicontrol.core.WorkspaceId(args.requiredString("workspaceId")));
        return new Resolved(listed, folders.of(listed.project()));
    }

    record Resolved(WorkspaceCalls.Listed listed, ProjectFiles files) {}

    /** The granted workspace {@code id} (TARGET_NOT_FOUND otherwise), for callers that need no files. */
    WorkspaceCalls.Listed listed(Session session, dev.lomicontrol.core.WorkspaceId id) {
        return workspaces.resolve(session, id);
    }

    /** The pinned files of a resolved workspace's project. */
    ProjectFiles folderOf(WorkspaceCalls.Listed listed) {
        return folders.of(listed.project());
    }

    /** One validated mutation with the exact fields of its type. */
    private record Change(String type, RelativePath path, EntryKind kind, Optional<String> newName, Optional<RelativePath> targetDirectory,
            String expectedEntry, String expectedParent, Optional<String> expectedTargetParent) {

        void precheck(ProjectFiles files) {
            if (!type.equals("create")) {
                requireSame(files.entryRevision(path), expectedEntry, path.toString());
            }
            requireSame(files.directoryRevision(path.parent()), expectedParent, "the parent of " + path);
            if (expectedTargetParent.isPresent()) {
                requireSame(files.directoryRevision(targetDirectory.orElseThrow()), expectedTargetParent.get(), "the target directory");
            }
        }

        Mutation apply(ProjectFiles files, Path recoveryRoot, String operationId) {
            switch (type) {
                case "create":
                    return files.create(path, kind, expectedParent, new byte[0]);
                case "rename":
                case "rename_directory":
                    return files.rename(path, newName.orElseThrow(), kind, expectedEntry, expectedParent);
                case "move":
                case "move_directory":
                    return files.move(path, targetDirectory.orElseThrow(), kind, expectedEntry, expectedParent, expectedTargetParent.orElseThrow());
                default:
                    return files.trash(path, kind, expectedEntry, expectedParent, recoveryRoot, operationId);
            }
        }

        private static void requireSame(String actual, String expected, String what) {
            if (!actual.equals(expected)) {
                throw new LomiException(ErrorCode.REVISION_CONFLICT, what + " changed since the revision you sent; list or read it again");
            }
        }
    }

    private static Change change(String type, Arguments op) {
        RelativePath path = RelativePath.parse(op.requiredString("relativePath"));
        if (path.isRoot()) {
            throw Arguments.invalid("operation.relativePath names an entry, not the project root");
        }
        switch (type) {
            case "create":
                only(op, type, "relativePath", "kind", "expectedParentRevision");
                return new Change(type, path, kind(op), Optional.empty(), Optional.empty(), "", revision(op, "expectedParentRevision"), Optional.empty());
            case "rename":
                only(op, type, "relativePath", "newName", "expectedDiskRevision", "expectedParentRevision");
                return new Change(type, path, EntryKind.FILE, Optional.of(name(op)), Optional.empty(), revision(op, "expectedDiskRevision"),
                        revision(op, "expectedParentRevision"), Optional.empty());
            case "rename_directory":
                only(op, type, "relativePath", "newName", "expectedDirectoryRevision", "expectedParentRevision");
                return new Change(type, path, EntryKind.DIRECTORY, Optional.of(name(op)), Optional.empty(), revision(op, "expectedDirectoryRevision"),
                        revision(op, "expectedParentRevision"), Optional.empty());
            case "move":
                only(op, type, "relativePath", "targetRelativePath", "expectedDiskRevision", "expectedParentRevision", "expectedTargetParentRevision");
                return new Change(type, path, EntryKind.FILE, Optional.empty(), Optional.of(RelativePath.parse(op.requiredString("targetRelativePath"))),
                        revision(op, "expectedDiskRevision"), revision(op, "expectedParentRevision"), Optional.of(revision(op, "expectedTargetParentRevision")));
            case "move_directory":
                only(op, type, "relativePath", "targetRelativePath", "expectedDirectoryRevision", "expectedParentRevision", "expectedTargetParentRevision");
                return new Change(type, path, EntryKind.DIRECTORY, Optional.empty(), Optional.of(RelativePath.parse(op.requiredString("targetRelativePath"))),
                        revision(op, "expectedDirectoryRevision"), revision(op, "expectedParentRevision"),
                        Optional.of(revision(op, "expectedTargetParentRevision")));
            default:
                only(op, type, "relativePath", "kind", "expectedEntryRevision", "expectedParentRevision");
                return new Change(type, path, kind(op), Optional.empty(), Optional.empty(), revision(op, "expectedEntryRevision"),
                        revision(op, "expectedParentRevision"), Optional.empty());
        }
    }

    private static void only(Arguments op, String type, String... fields) {
        List<String> allowed = List.of(fields);
        for (String name : List.of("relativePath", "kind", "newName", "targetRelativePath", "expectedParentRevision", "expectedDiskRevision",
                "expectedDirectoryRevision", "expectedEntryRevision", "expectedTargetParentRevision")) {
            if (op.has(name) && !allowed.contains(name)) {
                throw Arguments.invalid("operation " + type + " takes " + String.join(", ", fields) + ", not " + name);
            }
        }
    }

    private static EntryKind kind(Arguments op) {
        return op.choice("kind", Optional.empty(), "file", "directory").equals("file") ? EntryKind.FILE : EntryKind.DIRECTORY;
    }

    private static String name(Arguments op) {
        String name = op.requiredString("newName");
        if (name.isEmpty() || name.length() > 255 || name.contains("/")) {
            throw Arguments.invalid("newName is 1-255 characters without '/'");
        }
        RelativePath.parse(name);
        return name;
    }

    private static String revision(Arguments op, String name) {
        return sha256(op.requiredString(name));
    }

    static String sha256(String value) {
        if (!SHA256.matcher(value).matches()) {
            throw Arguments.invalid("a revision is 64 lower-case hex characters");
        }
        return value;
    }

    /** Registers the handlers of the tools this class serves. */
    void register(ToolHandlers handlers) {
    }

    /** The tools of this class not yet bound through their declarations. */
    void registerLegacy(java.util.Map<String, BrokerCalls.LegacyCall> legacy) {
        legacy.put("lomi_files_list", this::list);
        legacy.put("lomi_files_read", this::read);
        legacy.put("lomi_files_search", this::search);
        legacy.put("lomi_files_mutate", this::mutate);
    }
}
