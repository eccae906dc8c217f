package dev.lomicontrol.files.api;

import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.files.api.FileSpecs.Encoding;
import dev.lomicontrol.files.api.FileSpecs.EntryType;
import dev.lomicontrol.files.api.FileSpecs.LineEndings;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Hex64;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.Tag;
import java.util.List;
import java.util.Optional;

/**
 * What the files tools answer (SPEC §10 Files): the output records of {@link FileSpecs}' tools, under the simple names their schemas use.
 */
public final class FileResults {

    private FileResults() {}

    public record ListEntry(
            @Doc("the entry's name") String name,
            @Doc("its path from the project root") String relativePath,
            EntryType kind,

            @Doc("its size in bytes (a decimal string; 0 for a directory)")
            Decimal byteLength) {}

    @Tag("files_list")
    public record Listed(
            WorkspaceId workspaceId,
            @Doc("the directory listed") String relativeDirectory,

            @Doc("the revision of this listing; send it as expectedParentRevision or expectedDirectoryRevision")
            Hex64 directoryRevision,

            @Doc("the entries of this page, not recursive") List<ListEntry> entries,

            @Doc("whether secrets, links or special files were hidden from the listing")
            boolean filtered,

            @Doc("whether another page follows") boolean hasMore,

            @Doc("cursor of the next page (bound to this revision); null on the last page")
            Optional<String> nextCursor) {}

    @Tag("file_text")
    public record FileText(
            WorkspaceId workspaceId,
            @Doc("the file") String relativePath,

            @Doc("the page, with the file's own line endings (the reference's content)")
            String text,

            @Doc("where this page starts") @Range(min = 0, max = Integer.MAX_VALUE)
            int startUtf16,

            @Doc("where the next page starts") @Range(min = 0, max = Integer.MAX_VALUE)
            int nextUtf16,

            @Doc("the whole text's length in UTF-16 code units") @Range(min = 0, max = Integer.MAX_VALUE)
            int totalUtf16,

            @Doc("whether text follows this page") boolean truncated,

            @Doc("SHA-256 of the file's bytes; send it as expectedDiskRevision")
            Hex64 diskRevision,

            @Doc("the file's encoding") Encoding encoding,
            @Doc("the file's line endings") LineEndings lineEndings) {}

    public record Match(
            @Doc("the file") String relativePath,
            @Doc("the file's revision when it was searched") Hex64 diskRevision,

            @Doc("one-based line") @Range(min = 1, max = Integer.MAX_VALUE)
            int line,

            @Doc("one-based UTF-16 column (the reference's column)") @Range(min = 1, max = Integer.MAX_VALUE)
            int columnUtf16,

            @Doc("the match's length in UTF-16 code units (the reference's length)")
            @Range(min = 0, max = Integer.MAX_VALUE)
            int lengthUtf16,

            @Doc("the matching line (shortened when long)") String preview) {}

    @Tag("files_search")
    public record Found(
            WorkspaceId workspaceId,
            @Doc("where it searched") String relativeDirectory,
            @Doc("the matches of this page, file by file") List<Match> matches,

            @Doc(
                    "whether a search budget (256 matches, 32 MiB, 10,000 entries, 15 s) stopped the search early (the reference's limited)")
            boolean truncated,

            @Doc("how many files were searched") @Range(min = 0, max = Integer.MAX_VALUE)
            int filesScanned,

            @Doc("how many files or lines were skipped (too large, not text)") @Range(min = 0, max = Integer.MAX_VALUE)
            int skipped,

            @Doc("whether another page of this search follows")
            boolean hasMore,

            @Doc("cursor of the next page (valid 60 s); null on the last page")
            Optional<String> nextCursor) {}

    @Tag("files_mutated")
    public record Mutated(
            @Doc("the operation type") String type,

            @Doc("the entry's path afterwards (the reference's newPath; for trash the path it had)")
            String relativePath,

            EntryType entryKind,

            @Doc("a file's diskRevision afterwards (null for a directory or after trash)")
            Optional<Hex64> diskRevision,

            @Doc("the directoryRevision of the directory the entry is now in (for trash: the one it left)")
            Hex64 parentRevision,

            @Doc("a directory's directoryRevision afterwards (null for a file)")
            Optional<Hex64> directoryRevision,

            @Doc("trash: the recovery folder holding the entry and its plan.json; null otherwise")
            Optional<String> recoveryPath) {}
}
