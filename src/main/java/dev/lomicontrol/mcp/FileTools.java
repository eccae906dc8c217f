package dev.lomicontrol.mcp;

import static dev.lomicontrol.mcp.Schemas.arrayOf;
import static dev.lomicontrol.mcp.Schemas.atLeast;
import static dev.lomicontrol.mcp.Schemas.bool;
import static dev.lomicontrol.mcp.Schemas.constant;
import static dev.lomicontrol.mcp.Schemas.decimal;
import static dev.lomicontrol.mcp.Schemas.exactlyOne;
import static dev.lomicontrol.mcp.Schemas.form;
import static dev.lomicontrol.mcp.Schemas.hex64;
import static dev.lomicontrol.mcp.Schemas.integer;
import static dev.lomicontrol.mcp.Schemas.nullable;
import static dev.lomicontrol.mcp.Schemas.object;
import static dev.lomicontrol.mcp.Schemas.oneOfStrings;
import static dev.lomicontrol.mcp.Schemas.requiredAfterFirstPage;
import static dev.lomicontrol.mcp.Schemas.string;
import static dev.lomicontrol.mcp.Schemas.token;
import static dev.lomicontrol.mcp.Schemas.withDefault;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * Project file tools (SPEC §9, §10 Files; reference fields of research/lomi.md §1f, §6): list one
 * directory, read a UTF-16 page of a file on disk, search, and one durable mutation. Every write is
 * compare-and-set on SHA-256 revisions of the file bytes or of a directory listing; the path rules
 * that need the file system (no {@code .} or {@code ..}, no links, secrets) are checked natively.
 */
final class FileTools {

    static final String LIST = "lomi_files_list";
    static final String READ = "lomi_files_read";
    static final String SEARCH = "lomi_files_search";
    static final String MUTATE = "lomi_files_mutate";

    static final String[] MUTATIONS = {"create", "rename", "move", "rename_directory", "move_directory", "trash"};
    static final String[] ENCODINGS = {"utf-8", "utf-8-bom", "utf-16le", "utf-16be"};
    static final String[] LINE_ENDINGS = {"none", "lf", "crlf", "cr", "mixed"};

    /** The longest project-relative path, in characters (the broker also caps it at 4096 UTF-8 bytes). */
    static final int MAX_PATH = 4096;
    /** The highest UTF-16 offset a page or an edit may name (the reference's 16 Mi). */
    static final int MAX_UTF16 = 16 * 1024 * 1024;
    /** A relative directory: a relative path, or "" for the project root. */
    static final String RELATIVE_DIRECTORY_PATTERN = "^([^/\\u0000\\\\][^\\u0000\\\\]*)?$";
    /** One path component: no '/', backslash or NUL. */
    static final String NAME_PATTERN = "^[^/\\u0000\\\\]+$";
    /** A glob: one line, no control characters. */
    static final String GLOB_PATTERN = "^[^\\u0000-\\u001f\\u007f]+$";

    private static final String SCOPE = "files.read";

    private FileTools() {}

    static List<ToolDefinition> all() {
        return List.of(list(), read(), search(), mutate());
    }

    /** A path of a file or directory relative to the project root: 1-4096, no leading '/', no backslash, no NUL. */
    static ObjectNode relativePath(String description) {
        return string(1, MAX_PATH, TerminalTools.RELATIVE_PATH_PATTERN, description);
    }

    /** A directory relative to the project root, "" being the root itself. */
    static ObjectNode relativeDirectory(String description) {
        return string(0, MAX_PATH, RELATIVE_DIRECTORY_PATTERN, description);
    }

    /** A UTF-16 offset into a text (0 to {@link #MAX_UTF16}). */
    static ObjectNode utf16(String description) {
        return integer(0, MAX_UTF16, description);
    }

    /** {@code maxChars} of a paged text read: 2-8192 UTF-16 code units, default 4096 (2 so that a surrogate pair always fits). */
    static ObjectNode maxChars() {
        return withDefault(integer(2, 8192, "at most this many UTF-16 code units (2-8192, default 4096); a page never splits a "
                + "surrogate pair"), 4096);
    }

    private static ToolDefinition list() {
        ObjectNode input = object().property("workspaceId", token("the workspace whose project to list"))
                .property("relativeDirectory", withDefault(relativeDirectory("the directory to list, relative to the project root; \"\" "
                        + "(default) is the root"), ""))
                .property("limit", withDefault(integer(1, 200, "page size (1-200, default 100)"), 100))
                .property("cursor", string(1, 1024, null, "nextCursor of the previous page")).require("workspaceId").closed().build();
        ObjectNode entry = object().property("name", string("the entry's name")).property("relativePath", string("its path from the project root"))
                .property("kind", oneOfStrings("file or directory", "file", "directory"))
                .property("byteLength", decimal("its size in bytes (a decimal string)"))
                .require("name", "relativePath", "kind", "byteLength").build();
        ObjectNode data = object().property("kind", constant("files_list")).property("workspaceId", token("the workspace"))
                .property("relativeDirectory", string("the directory listed"))
                .property("directoryRevision", hex64("the revision of this listing; send it as expectedParentRevision, "
                        + "expectedDirectoryRevision or expectedTargetParentRevision"))
                .property("entries", arrayOf(entry, "the entries of this page, not recursive"))
                .property("filtered", bool("whether secrets, links or special files were hidden from the listing"))
                .property("hasMore", bool("whether another page follows"))
                .property("nextCursor", nullable(string("cursor of the next page (bound to this revision); null on the last page")))
                .require("kind", "workspaceId", "relativeDirectory", "directoryRevision", "entries", "filtered", "hasMore", "nextCursor").build();
        return ToolDefinition.broker(LIST, "List a directory",
                "Lists one directory of the project (not recursive): name, relativePath, kind (file|directory) and byteLength of each entry, "
                        + "and the directoryRevision to base a mutation on. Secrets (.env*, .git, .ssh, keys, …), links and special files are "
                        + "left out and set filtered. Paged; a cursor of an older listing is CURSOR_EXPIRED.",
                Effect.RO, SCOPE, input, data);
    }

    private static ToolDefinition read() {
        ObjectNode input = object().property("workspaceId", token("its workspace"))
                .property("relativePath", relativePath("the file, relative to the project root"))
                .property("startUtf16", withDefault(utf16("where the page starts, in UTF-16 code units (default 0)"), 0))
                .property("maxChars", maxChars())
                .property("expectedDiskRevision", hex64("the diskRevision of the first page; required when startUtf16 > 0, so that "
                        + "pages of a file that changed in between are refused (REVISION_CONFLICT)"))
                .require("workspaceId", "relativePath").closed().build();
        ObjectNode data = object().property("kind", constant("file_text")).property("workspaceId", token("the workspace"))
                .property("relativePath", string("the file")).property("text", string("the page, with the file's own line endings"))
                .property("startUtf16", integer("where this page starts")).property("nextUtf16", integer("where the next page starts"))
                .property("totalUtf16", integer("the whole text's length in UTF-16 code units"))
                .property("truncated", bool("whether text follows this page"))
                .property("diskRevision", hex64("SHA-256 of the file's bytes; send it as expectedDiskRevision"))
                .property("encoding", oneOfStrings("the file's encoding (a BOM decides the utf-16 ones)", ENCODINGS))
                .property("lineEndings", oneOfStrings("the file's line endings", LINE_ENDINGS))
                .require("kind", "workspaceId", "relativePath", "text", "startUtf16", "nextUtf16", "totalUtf16", "truncated", "diskRevision",
                        "encoding", "lineEndings")
                .build();
        return ToolDefinition.broker(READ, "Read a file",
                "Reads a page of a text file on disk (not an editor buffer) by UTF-16 offsets: text, nextUtf16, totalUtf16, truncated, "
                        + "diskRevision, encoding (utf-8, utf-8-bom, utf-16le, utf-16be) and lineEndings. Later pages need "
                        + "expectedDiskRevision. Secret paths are SCOPE_DENIED; files over 4 MiB are refused.",
                Effect.RO, SCOPE, input, data).withConstraint(requiredAfterFirstPage("startUtf16", "expectedDiskRevision"));
    }

    private static ToolDefinition search() {
        ObjectNode query = object().property("text", string(1, 1024, TerminalTools.TEXT_PATTERN, "what to find (1-1024 characters)"))
                .property("regex", withDefault(bool("whether text is a regular expression (default false: literal)"), false))
                .property("caseSensitive", withDefault(bool("default false"), false))
                .property("wholeWord", withDefault(bool("match whole words only (default false)"), false))
                .property("include", globs("search only files matching one of these globs (up to 32)"))
                .property("exclude", globs("skip files matching one of these globs (up to 32)"))
                .require("text").closed().build();
        ObjectNode input = object().property("workspaceId", token("its workspace"))
                .property("relativeDirectory", withDefault(relativeDirectory("where to search, recursively; \"\" (default) is the project "
                        + "root"), ""))
                .property("query", query).property("limit", withDefault(integer(1, 256, "at most this many matches (1-256, default 100)"), 100))
                .require("workspaceId", "query").closed().build();
        ObjectNode match = object().property("relativePath", string("the file")).property("diskRevision", hex64("the file's revision when "
                        + "it was searched"))
                .property("line", atLeast(1, "one-based line")).property("columnUtf16", atLeast(1, "one-based UTF-16 column"))
                .property("lengthUtf16", atLeast(0, "the match's length in UTF-16 code units"))
                .property("preview", string("the matching line (shortened when long)"))
                .require("relativePath", "diskRevision", "line", "columnUtf16", "lengthUtf16", "preview").build();
        ObjectNode data = object().property("kind", constant("files_search")).property("workspaceId", token("the workspace"))
                .property("matches", arrayOf(match, "the matches, file by file")).property("truncated", bool("whether the limit or a search "
                        + "budget stopped the search early"))
                .property("filesScanned", atLeast(0, "how many files were searched"))
                .property("skipped", atLeast(0, "how many files or lines were skipped (too large, not text)"))
                .require("kind", "workspaceId", "matches", "truncated", "filesScanned", "skipped").build();
        return ToolDefinition.broker(SEARCH, "Search files",
                "Searches the text files under a directory, literally or by regex, with caseSensitive, wholeWord and include/exclude "
                        + "globs. Only your globs filter (no .gitignore is read); secrets and links are never searched. Each match names its "
                        + "file's diskRevision, a one-based line and UTF-16 column, and a preview.",
                Effect.RO, SCOPE, input, data);
    }

    private static ObjectNode globs(String description) {
        return arrayOf(string(1, 256, GLOB_PATTERN, "a glob over the files' relative paths, e.g. **/*.java"), 0, 32, description);
    }

    private static ToolDefinition mutate() {
        String revision = "the directoryRevision from lomi_files_list";
        ObjectNode operation = object().property("type", oneOfStrings("which change", MUTATIONS))
                .property("relativePath", relativePath("the entry to create or change"))
                .property("kind", oneOfStrings("create, trash: file or directory", "file", "directory"))
                .property("newName", string(1, 255, NAME_PATTERN, "rename, rename_directory: the new name in the same directory (no '/')"))
                .property("targetRelativePath", relativeDirectory("move, move_directory: the directory to move into (\"\" is the root)"))
                .property("expectedParentRevision", hex64("every type: " + revision + " of the entry's directory"))
                .property("expectedDiskRevision", hex64("rename, move: the file's diskRevision"))
                .property("expectedDirectoryRevision", hex64("rename_directory, move_directory: " + revision + " of the directory itself"))
                .property("expectedEntryRevision", hex64("trash: the entry's revision (diskRevision of a file, directoryRevision of a "
                        + "directory)"))
                .property("expectedTargetParentRevision", hex64("move, move_directory: " + revision + " of the target directory"))
                .require("type").closed().description("the type plus exactly the fields of that type").build();
        ObjectNode input = object().property("workspaceId", token("its workspace")).property("operation", operation)
                .require("workspaceId", "operation").expectedRevision().durable().closed().build();
        ObjectNode variants = exactlyOne(
                mutation("create", "relativePath", "kind", "expectedParentRevision"),
                mutation("rename", "relativePath", "newName", "expectedDiskRevision", "expectedParentRevision"),
                mutation("move", "relativePath", "targetRelativePath", "expectedDiskRevision", "expectedParentRevision",
                        "expectedTargetParentRevision"),
                mutation("rename_directory", "relativePath", "newName", "expectedDirectoryRevision", "expectedParentRevision"),
                mutation("move_directory", "relativePath", "targetRelativePath", "expectedDirectoryRevision", "expectedParentRevision",
                        "expectedTargetParentRevision"),
                mutation("trash", "relativePath", "kind", "expectedEntryRevision", "expectedParentRevision"));
        return ToolDefinition.broker(MUTATE, "Create, rename, move or trash",
                "One change, compare-and-set on revisions: create {relativePath, kind, expectedParentRevision}; rename {relativePath, newName, "
                        + "expectedDiskRevision, expectedParentRevision}; move {relativePath, targetRelativePath, expectedDiskRevision, "
                        + "expectedParentRevision, expectedTargetParentRevision}; rename_directory / move_directory (the same with "
                        + "expectedDirectoryRevision); trash {relativePath, kind, expectedEntryRevision, expectedParentRevision}. create also needs "
                        + "the scope files.create, trash files.trash, the others files.rename. Never overwrites; trash keeps a recovery copy "
                        + "with its plan.json. Returns an operation; its result is "
                        + "{kind:\"files_mutated\", type, relativePath (afterwards), entryKind, diskRevision, parentRevision, directoryRevision, "
                        + "recoveryPath (trash only)}.",
                Effect.OP, "files.mutate", input, OperationTools.operation()).withConstraint(object().property("operation", variants).build());
    }

    /** One variant of {@code operation}: its type pinned, exactly its own fields, all required. */
    private static ObjectNode mutation(String type, String... fields) {
        List<String> all = new ArrayList<>(List.of(fields));
        all.add(0, "type");
        return form(type + " {" + String.join(", ", fields) + "}", all).property("type", constant(type)).require(all.toArray(String[]::new))
                .build();
    }
}
