package dev.lomicontrol.files.tools;

import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WorkspaceId;
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
import dev.lomicontrol.files.api.FileSpecs;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Hex64;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.ObjectNode;

/**
 * File tools (SPEC §10 "Files"): list, read and search are reads; {@code lomi_files_mutate} is a
 * durable operation whose expected revisions are checked before the receipt (stale → refused, no
 * receipt) and again inside {@code ProjectFiles} just before the change. A search runs once (at
 * most 256 matches) and its further pages are served from a copy kept 60 s for the session that ran
 * it, bound to the same workspace, directory and query (the reference's cursor; CURSOR_EXPIRED after).
 */
@Component
public final class FileCalls implements ToolFeature {

    public static final Duration SEARCH_CURSOR_LIFE = Duration.ofSeconds(60);
    static final int MAX_SEARCH_MATCHES = 256;
    private static final int MAX_KEPT_SEARCHES = 32;
    private static final Pattern LIST_CURSOR = Pattern.compile("([0-9a-f]{16}):([0-9]{1,9})");
    private static final Pattern SEARCH_CURSOR = Pattern.compile("([0-9a-f]{16}):([1-9][0-9]{0,8})");

    private final WorkspaceAccess workspaces;
    private final ProjectFolders folders;
    private final OperationRunner runner;
    private final Layout layout;
    private final Path recoveryRoot;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, KeptSearch> searches = new LinkedHashMap<>();

    /** Trashed files the system trash cannot take are kept under {@code <data directory>/trash-recovery}. */
    public FileCalls(WorkspaceAccess workspaces, OperationRunner runner, Layout layout, DataDirectory data) {
        this.workspaces = workspaces;
        this.folders = new ProjectFolders();
        this.runner = runner;
        this.layout = layout;
        this.recoveryRoot = data.root().resolve("trash-recovery");
    }

    public FileSpecs.Listed list(Session session, FileSpecs.ListInput in) {
        Resolved target = resolve(session, in.workspaceId());
        RelativePath directory = RelativePath.parse(in.relativeDirectory());
        Listing listing = target.files.list(directory);
        int offset = 0;
        if (in.cursor().isPresent()) {
            Matcher matcher = LIST_CURSOR.matcher(in.cursor().get());
            if (!matcher.matches()) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "arguments.cursor: is not a files_list cursor");
            }
            if (!listing.directoryRevision().startsWith(matcher.group(1))) {
                throw new LomiException(
                        ErrorCode.CURSOR_EXPIRED,
                        "the directory changed since this cursor; list again without a cursor");
            }
            offset = Integer.parseInt(matcher.group(2));
        }
        List<Entry> entries = listing.entries();
        int end = Math.min(entries.size(), offset + in.limit());
        List<FileSpecs.ListEntry> page = entries.subList(Math.min(offset, end), end).stream()
                .map(e ->
                        new FileSpecs.ListEntry(e.name(), e.relativePath(), type(e.kind()), Decimal.of(e.byteLength())))
                .toList();
        boolean hasMore = end < entries.size();
        return new FileSpecs.Listed(
                target.listed.workspace().id(),
                directory.toString(),
                new Hex64(listing.directoryRevision()),
                page,
                listing.filtered(),
                hasMore,
                hasMore ? Optional.of(listing.directoryRevision().substring(0, 16) + ":" + end) : Optional.empty());
    }

    public FileSpecs.FileText read(Session session, FileSpecs.ReadInput in) {
        Resolved target = resolve(session, in.workspaceId());
        RelativePath path = RelativePath.parse(in.relativePath());
        FileSnapshot snapshot = target.files.read(path);
        Optional<String> expected = in.expectedDiskRevision().map(Hex64::value);
        if (expected.isPresent() && !expected.get().equals(snapshot.diskRevision())) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the file changed since diskRevision " + expected.get() + "; read it again from the start");
        }
        TextCodec.DecodedPage decoded = TextCodec.page(snapshot.bytes(), in.startUtf16(), in.maxChars());
        TextPage page = decoded.page();
        return new FileSpecs.FileText(
                target.listed.workspace().id(),
                path.toString(),
                page.text(),
                page.startUtf16(),
                page.nextUtf16(),
                page.totalUtf16(),
                page.truncated(),
                new Hex64(snapshot.diskRevision()),
                encoding(decoded.encoding()),
                lineEndings(decoded.lineEndings()));
    }

    public FileSpecs.Found search(Session session, FileSpecs.SearchInput in) {
        Resolved target = resolve(session, in.workspaceId());
        RelativePath directory = RelativePath.parse(in.relativeDirectory());
        SearchKey key =
                new SearchKey(session.id().value(), target.listed.workspace().id(), directory.toString(), in.query());
        Instant now = runner.clock().instant();
        if (in.cursor().isPresent()) {
            Matcher matcher = SEARCH_CURSOR.matcher(in.cursor().get());
            KeptSearch kept;
            synchronized (searches) {
                forgetExpired(now);
                kept = matcher.matches() ? searches.get(matcher.group(1)) : null;
            }
            int offset = kept == null ? 0 : Integer.parseInt(matcher.group(2));
            if (kept == null
                    || !kept.key.equals(key)
                    || kept.files != target.files
                    || offset >= kept.result.matches().size()) {
                throw new LomiException(
                        ErrorCode.CURSOR_EXPIRED,
                        "this search cursor expired (60 s) or belongs to another search; search again "
                                + "without a cursor");
            }
            return page(key, kept.id, kept.result, offset, in.limit());
        }
        FileSpecs.Query q = in.query();
        SearchQuery query = new SearchQuery(
                q.text(),
                q.regex(),
                q.caseSensitive(),
                q.wholeWord(),
                FileSpecs.Query.globs(q.include(), "include"),
                FileSpecs.Query.globs(q.exclude(), "exclude"));
        SearchResult result = target.files.search(directory, query, MAX_SEARCH_MATCHES);
        String id = Ids.randomHex(random, 8);
        if (result.matches().size() > in.limit()) {
            synchronized (searches) {
                forgetExpired(now);
                searches.put(id, new KeptSearch(id, key, target.files, result, now.plus(SEARCH_CURSOR_LIFE)));
                Iterator<String> oldest = searches.keySet().iterator();
                while (searches.size() > MAX_KEPT_SEARCHES) {
                    oldest.next();
                    oldest.remove();
                }
            }
        }
        return page(key, id, result, 0, in.limit());
    }

    private static FileSpecs.Found page(SearchKey key, String id, SearchResult result, int offset, int limit) {
        List<SearchMatch> all = result.matches();
        int end = Math.min(all.size(), offset + limit);
        List<FileSpecs.Match> matches = all.subList(offset, end).stream()
                .map(m -> new FileSpecs.Match(
                        m.relativePath(),
                        new Hex64(m.diskRevision()),
                        m.line(),
                        m.columnUtf16(),
                        m.lengthUtf16(),
                        m.preview()))
                .toList();
        boolean hasMore = end < all.size();
        return new FileSpecs.Found(
                key.workspace,
                key.relativeDirectory,
                matches,
                result.truncated(),
                result.filesScanned(),
                result.skipped(),
                hasMore,
                hasMore ? Optional.of(id + ":" + end) : Optional.empty());
    }

    private void forgetExpired(Instant now) {
        searches.values().removeIf(kept -> !now.isBefore(kept.expires));
    }

    /** What a search cursor is bound to: the session that searched, the workspace, the directory and the query. */
    private record SearchKey(String owner, WorkspaceId workspace, String relativeDirectory, FileSpecs.Query query) {}

    private record KeptSearch(String id, SearchKey key, ProjectFiles files, SearchResult result, Instant expires) {}

    /** create, rename, move, rename_directory, move_directory or trash — never overwriting, never following links. */
    public ObjectNode mutate(Session session, FileSpecs.MutateInput in) {
        Resolved target = resolve(session, in.workspaceId());
        Change change = change(in.operation());
        String scope = change.type.equals("create")
                ? "files.create"
                : change.type.equals("trash") ? "files.trash" : "files.rename";
        if (!session.grant().allows(scope)) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    dev.lomicontrol.core.ErrorMessages.missingScope("files_mutate " + change.type, scope));
        }
        long expected = in.expectedRevision().asLong();
        ProjectFiles files = target.files;
        return runner.immediate(
                OperationRunner.Request.of(
                        session, FileSpecs.MUTATE, in, target.listed, change.type + ":" + change.path, expected),
                () -> {
                    Revisions.require(expected, layout.revision());
                    change.precheck(files);
                },
                operation -> {
                    Mutation done =
                            change.apply(files, recoveryRoot, operation.id().value());
                    Optional<String> recovery = change.type.equals("trash")
                            ? Optional.of(
                                    recoveryRoot.resolve(operation.id().value()).toString())
                            : Optional.empty();
                    return Encoder.encode(new FileSpecs.Mutated(
                            change.type,
                            done.relativePath(),
                            type(done.kind()),
                            done.diskRevision().map(Hex64::new),
                            new Hex64(done.parentRevision()),
                            done.directoryRevision().map(Hex64::new),
                            recovery));
                });
    }

    /** The granted workspace and its project's pinned files. */
    public Resolved resolve(Session session, WorkspaceId workspace) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, workspace);
        return new Resolved(listed, folders.of(listed.project()));
    }

    public record Resolved(WorkspaceAccess.Listed listed, ProjectFiles files) {}

    /** The granted workspace {@code id} (TARGET_NOT_FOUND otherwise), for callers that need no files. */
    public WorkspaceAccess.Listed listed(Session session, dev.lomicontrol.core.WorkspaceId id) {
        return workspaces.resolve(session, id);
    }

    /** The pinned files of a resolved workspace's project. */
    public ProjectFiles folderOf(WorkspaceAccess.Listed listed) {
        return folders.of(listed.project());
    }

    public static FileSpecs.Encoding encoding(dev.lomicontrol.files.TextEncoding encoding) {
        return FileSpecs.Encoding.valueOf(encoding.name());
    }

    public static FileSpecs.LineEndings lineEndings(dev.lomicontrol.files.LineEndings endings) {
        return FileSpecs.LineEndings.valueOf(endings.name());
    }

    public static FileSpecs.EntryType type(EntryKind kind) {
        return kind == EntryKind.FILE ? FileSpecs.EntryType.FILE : FileSpecs.EntryType.DIRECTORY;
    }

    private static EntryKind kind(FileSpecs.EntryType type) {
        return type == FileSpecs.EntryType.FILE ? EntryKind.FILE : EntryKind.DIRECTORY;
    }

    /**
     * One bound mutation. {@code destination} is where the entry ends up (rename: beside it; move:
     * the reference's targetRelativePath); {@code expectedParent} is checked against the directory
     * it is created in, renamed in, moved into, or trashed from.
     */
    private record Change(
            String type,
            RelativePath path,
            EntryKind kind,
            RelativePath destination,
            String expectedEntry,
            String expectedParent) {

        void precheck(ProjectFiles files) {
            if (!type.equals("create")) {
                requireSame(files.entryRevision(path), expectedEntry, path.toString());
            }
            requireSame(files.directoryRevision(destination.parent()), expectedParent, "the parent of " + destination);
        }

        Mutation apply(ProjectFiles files, Path recoveryRoot, String operationId) {
            switch (type) {
                case "create":
                    return files.create(path, kind, expectedParent, new byte[0]);
                case "rename":
                case "rename_directory":
                    return files.rename(path, destination.name(), kind, expectedEntry, expectedParent);
                case "move":
                case "move_directory":
                    return files.move(path, destination, kind, expectedEntry, expectedParent);
                default:
                    return files.trash(path, kind, expectedEntry, expectedParent, recoveryRoot, operationId);
            }
        }

        private static void requireSame(String actual, String expected, String what) {
            if (!actual.equals(expected)) {
                throw new LomiException(
                        ErrorCode.REVISION_CONFLICT,
                        what + " changed since the revision you sent; list or read it again");
            }
        }
    }

    private static Change change(FileSpecs.Mutation operation) {
        RelativePath path = RelativePath.parse(operation.relativePath());
        if (path.isRoot()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "arguments.operation.relativePath: names an entry, not the project root");
        }
        String parent = operation.expectedParentRevision().value();
        if (operation instanceof FileSpecs.Create create) {
            return new Change("create", path, kind(create.kind()), path, "", parent);
        }
        if (operation instanceof FileSpecs.Rename rename) {
            return new Change(
                    "rename",
                    path,
                    EntryKind.FILE,
                    same(path, path.parent().child(name(rename.newName())), EntryKind.FILE),
                    rename.expectedDiskRevision().value(),
                    parent);
        }
        if (operation instanceof FileSpecs.RenameDirectory rename) {
            return new Change(
                    "rename_directory",
                    path,
                    EntryKind.DIRECTORY,
                    same(path, path.parent().child(name(rename.newName())), EntryKind.DIRECTORY),
                    rename.expectedDirectoryRevision().value(),
                    parent);
        }
        if (operation instanceof FileSpecs.Move move) {
            return new Change(
                    "move",
                    path,
                    EntryKind.FILE,
                    destination(path, move.targetRelativePath(), EntryKind.FILE),
                    move.expectedDiskRevision().value(),
                    parent);
        }
        if (operation instanceof FileSpecs.MoveDirectory move) {
            return new Change(
                    "move_directory",
                    path,
                    EntryKind.DIRECTORY,
                    destination(path, move.targetRelativePath(), EntryKind.DIRECTORY),
                    move.expectedDirectoryRevision().value(),
                    parent);
        }
        FileSpecs.Trash trash = (FileSpecs.Trash) operation;
        return new Change(
                "trash",
                path,
                kind(trash.kind()),
                path,
                trash.expectedEntryRevision().value(),
                parent);
    }

    /** The destination of a move, refused before any receipt where the reference refuses it: onto itself, a directory into itself. */
    private static RelativePath destination(RelativePath path, String target, EntryKind kind) {
        RelativePath destination = RelativePath.parse(target);
        if (destination.isRoot()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "arguments.operation.targetRelativePath: is the destination path, not the project root");
        }
        return same(path, destination, kind);
    }

    /** As the reference (a rename is a move beside it): onto itself is REVISION_CONFLICT for a file, SCOPE_DENIED for a directory. */
    private static RelativePath same(RelativePath path, RelativePath destination, EntryKind kind) {
        if (kind == EntryKind.DIRECTORY && destination.startsWith(path)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "a directory cannot be moved onto or into itself");
        }
        if (destination.equals(path)) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "'" + path + "' is already at " + destination);
        }
        return destination;
    }

    private static String name(String name) {
        RelativePath.parse(name);
        return name;
    }

    /** Registers the handlers of the tools this class serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(FileSpecs.LIST, this::list);
        handlers.on(FileSpecs.READ, this::read);
        handlers.on(FileSpecs.SEARCH, this::search);
        handlers.on(FileSpecs.MUTATE, this::mutate);
    }
}
