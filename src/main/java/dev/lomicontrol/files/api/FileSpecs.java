package dev.lomicontrol.files.api;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.ErrorMessages;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Hex64;
import dev.lomicontrol.tools.LayoutBased;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.ScopeNeed;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Tagged;
import dev.lomicontrol.tools.ToolSpec;
import dev.lomicontrol.tools.WireName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The files tools (SPEC §10 Files; the reference's {@code files.rs}): list one directory, read a
 * UTF-16 page of a file on disk, search (paged by a 60 s cursor bound to the query), and one durable
 * mutation. Every write is compare-and-set on SHA-256 revisions of the file bytes or of a directory
 * listing; the path rules that need the file system (no {@code .} or {@code ..}, no links, secrets)
 * are checked natively.
 */
public final class FileSpecs {

    private FileSpecs() {}

    /** A project-relative path: no leading '/', no backslash, no NUL (the rest is checked natively). */
    public static final String PATH = "[^/\\u0000\\\\][^\\u0000\\\\]*";
    /** A project-relative directory; "" is the project root. */
    public static final String DIRECTORY = "(" + PATH + ")?";
    /** One path component. */
    public static final String NAME = "[^/\\u0000\\\\]+";
    /** The longest path, in characters (natively also at most 4096 UTF-8 bytes). */
    public static final int MAX_PATH = 4096;
    /** The highest UTF-16 offset a page or an edit may name (the reference's 16 Mi). */
    public static final int MAX_UTF16 = 16 * 1024 * 1024;
    /** At most this many globs in include or exclude. */
    public static final int MAX_GLOBS = 32;

    public enum EntryType {
        FILE,
        DIRECTORY
    }

    /** A text file's encoding (a BOM decides the utf-16 ones). */
    public enum Encoding {
        @WireName("utf-8")
        UTF_8,
        @WireName("utf-8-bom")
        UTF_8_BOM,
        @WireName("utf-16le")
        UTF_16LE,
        @WireName("utf-16be")
        UTF_16BE
    }

    /** A text's line endings. */
    public enum LineEndings {
        NONE,
        LF,
        CRLF,
        CR,
        MIXED
    }

    // --- lomi_files_list

    public record ListInput(
            WorkspaceId workspaceId,

            @Doc("\"\" = the project root") @Len(min = 0, max = MAX_PATH) @Matches(DIRECTORY) @Default("\"\"")
            String relativeDirectory,

            @Range(min = 1, max = 200) @Default("100") int limit,

            @Len(min = 1, max = 1024) Optional<String> cursor) {}

    // --- lomi_files_read

    public record ReadInput(
            WorkspaceId workspaceId,

            @Len(min = 1, max = MAX_PATH) @Matches(PATH) String relativePath,

            @Range(min = 0, max = MAX_UTF16) @Default("0") int startUtf16,

            @Range(min = 2, max = 8192) @Default("4096") int maxChars,

            @Doc("from page one; required when startUtf16 > 0")
            Optional<Hex64> expectedDiskRevision) {

        public ReadInput {
            if (startUtf16 > 0 && expectedDiskRevision.isEmpty()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "expectedDiskRevision: is required when startUtf16 > 0 (the diskRevision of the first page)");
            }
        }
    }

    // --- lomi_files_search

    /** The reference's {@code FileSearchQuery}: every field has a default; {@code text} must still name something to find. */
    public record Query(
            @Len(min = 0, max = 1024) @Default("\"\"") String text,

            @Default("false") boolean caseSensitive,

            @Default("false") boolean wholeWord,

            @Default("false") boolean regex,

            @Doc("comma-separated globs, e.g. \"*.rs,*.toml\"") @Len(min = 0, max = 4096) @Default("\"\"")
            String include,

            @Doc("comma-separated globs") @Len(min = 0, max = 4096) @Default("\"\"")
            String exclude) {

        public Query {
            if (text.isEmpty()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT, "query.text is required: what to find (1-1024 characters)");
            }
            if (text.indexOf('\r') >= 0 || text.indexOf('\n') >= 0) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "query.text is one line (no CR or LF)");
            }
            globs(include, "include");
            globs(exclude, "exclude");
        }

        /** The globs of a comma-separated list: trimmed, empty items dropped. */
        public static List<String> globs(String list, String field) {
            List<String> globs = new ArrayList<>();
            for (String item : list.split(",")) {
                String glob = item.strip();
                if (glob.isEmpty()) {
                    continue;
                }
                if (glob.length() > 256 || glob.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                    throw new LomiException(
                            ErrorCode.INVALID_ARGUMENT,
                            "query." + field + ": each glob is 1-256 characters without control " + "characters");
                }
                globs.add(glob);
            }
            if (globs.size() > MAX_GLOBS) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT, "query." + field + ": at most " + MAX_GLOBS + " globs");
            }
            return List.copyOf(globs);
        }
    }

    public record SearchInput(
            WorkspaceId workspaceId,

            @Doc("\"\" = the project root") @Len(min = 0, max = MAX_PATH) @Matches(DIRECTORY) @Default("\"\"")
            String relativeDirectory,

            Query query,

            @Range(min = 1, max = 256) @Default("100") int limit,

            @Doc("null = a new search") @Len(min = 1, max = 80)
            Optional<String> cursor) {}

    // --- lomi_files_mutate

    /** The reference's {@code FileMutation}: exactly the fields of its type. */
    @Tagged("type")
    public sealed interface Mutation {
        String relativePath();

        Hex64 expectedParentRevision();
    }

    @Tag("create")
    public record Create(
            @Len(min = 1, max = MAX_PATH) @Matches(PATH) String relativePath,

            EntryType kind,

            @Doc("its parent's directoryRevision") Hex64 expectedParentRevision)
            implements Mutation {}

    @Tag("rename")
    public record Rename(
            @Len(min = 1, max = MAX_PATH) @Matches(PATH) String relativePath,

            @Len(min = 1, max = 255) @Matches(NAME) String newName,

            Hex64 expectedDiskRevision,
            @Doc("its parent's directoryRevision") Hex64 expectedParentRevision)
            implements Mutation {}

    @Tag("move")
    public record Move(
            @Len(min = 1, max = MAX_PATH) @Matches(PATH) String relativePath,

            @Doc("the full new path") @Len(min = 1, max = MAX_PATH) @Matches(PATH)
            String targetRelativePath,

            Hex64 expectedDiskRevision,

            @Doc("the new parent's directoryRevision") Hex64 expectedParentRevision)
            implements Mutation {}

    @Tag("rename_directory")
    public record RenameDirectory(
            @Len(min = 1, max = MAX_PATH) @Matches(PATH) String relativePath,

            @Len(min = 1, max = 255) @Matches(NAME) String newName,

            Hex64 expectedDirectoryRevision,

            @Doc("its parent's directoryRevision") Hex64 expectedParentRevision)
            implements Mutation {}

    @Tag("move_directory")
    public record MoveDirectory(
            @Len(min = 1, max = MAX_PATH) @Matches(PATH) String relativePath,

            @Doc("the full new path") @Len(min = 1, max = MAX_PATH) @Matches(PATH)
            String targetRelativePath,

            Hex64 expectedDirectoryRevision,

            @Doc("the new parent's directoryRevision") Hex64 expectedParentRevision)
            implements Mutation {}

    @Tag("trash")
    public record Trash(
            @Len(min = 1, max = MAX_PATH) @Matches(PATH) String relativePath,

            EntryType kind,

            @Doc("diskRevision or directoryRevision") Hex64 expectedEntryRevision,

            @Doc("its parent's directoryRevision") Hex64 expectedParentRevision)
            implements Mutation {}

    public record MutateInput(
            WorkspaceId workspaceId,
            Mutation operation,

            @Doc("the domainRevision") Decimal expectedRevision,

            RetryEpochId retryEpoch,

            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public static final ToolSpec<ListInput> LIST = ToolSpec.read(
            "lomi_files_list",
            "List a directory",
            "files.read",
            "R-I-",
            ListInput.class,
            FileResults.Listed.class,
            "Lists one directory of the project (not recursive) with its directoryRevision. Secrets and links are left out.");

    public static final ToolSpec<ReadInput> READ = ToolSpec.read(
            "lomi_files_read",
            "Read a file",
            "files.read",
            "R-I-",
            ReadInput.class,
            FileResults.FileText.class,
            "Reads a page of a text file on disk (not an editor buffer) with its diskRevision.");

    public static final ToolSpec<SearchInput> SEARCH = ToolSpec.read(
            "lomi_files_search",
            "Search files",
            "files.read",
            "R-I-",
            SearchInput.class,
            FileResults.Found.class,
            "Searches the project's text files, literally or by regex, filtered by include/exclude globs (no .gitignore).");

    /** Each change type needs its own scope besides files.mutate: create, trash, or rename for the renames and moves. */
    static List<ScopeNeed> mutationScopes(MutateInput in) {
        Mutation operation = in.operation();
        String scope = operation instanceof Create
                ? "files.create"
                : operation instanceof Trash ? "files.trash" : "files.rename";
        String type = operation.getClass().getAnnotation(Tag.class).value();
        return List.of(ScopeNeed.of(scope, ErrorMessages.missingScope("files_mutate " + type, scope)));
    }

    public static final ToolSpec<MutateInput> MUTATE = ToolSpec.operation(
                    "lomi_files_mutate",
                    "Create, rename, move or trash",
                    "files.mutate",
                    "-DIO",
                    MutateInput.class,
                    FileResults.Mutated.class,
                    "Creates, renames, moves or trashes one file or directory; compare-and-set on revisions, never overwrites.")
            .withVariantScopes(FileSpecs::mutationScopes);

    public static final List<ToolSpec<?>> ALL = List.of(LIST, READ, SEARCH, MUTATE);
}
