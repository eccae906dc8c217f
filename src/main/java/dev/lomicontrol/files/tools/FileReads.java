package dev.lomicontrol.files.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.Entry;
import dev.lomicontrol.files.FileSnapshot;
import dev.lomicontrol.files.Listing;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.TextCodec;
import dev.lomicontrol.files.TextPage;
import dev.lomicontrol.files.api.FileResults;
import dev.lomicontrol.files.api.FileSpecs;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Hex64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code lomi_files_list} (one directory, paged by a cursor bound to its directoryRevision) and
 * {@code lomi_files_read} (a UTF-16 page of a file on disk, optionally at an expected diskRevision).
 */
final class FileReads {

    private static final Pattern LIST_CURSOR = Pattern.compile("([0-9a-f]{16}):([0-9]{1,9})");

    private final FileTargets targets;

    FileReads(FileTargets targets) {
        this.targets = targets;
    }

    FileResults.Listed list(Session session, FileSpecs.ListInput in) {
        FileCalls.Resolved target = targets.resolve(session, in.workspaceId());
        RelativePath directory = RelativePath.parse(in.relativeDirectory());
        Listing listing = target.files().list(directory);
        int offset = in.cursor().map(cursor -> offsetOf(cursor, listing)).orElse(0);
        List<Entry> entries = listing.entries();
        int end = Math.min(entries.size(), offset + in.limit());
        List<FileResults.ListEntry> page = entries.subList(Math.min(offset, end), end).stream()
                .map(e -> new FileResults.ListEntry(
                        e.name(), e.relativePath(), FileCalls.type(e.kind()), Decimal.of(e.byteLength())))
                .toList();
        boolean hasMore = end < entries.size();
        return new FileResults.Listed(
                target.listed().workspace().id(),
                directory.toString(),
                new Hex64(listing.directoryRevision()),
                page,
                listing.filtered(),
                hasMore,
                hasMore ? Optional.of(listing.directoryRevision().substring(0, 16) + ":" + end) : Optional.empty());
    }

    /** Where a list cursor continues: refused when it is not one, expired when the directory changed since. */
    private static int offsetOf(String cursor, Listing listing) {
        Matcher matcher = LIST_CURSOR.matcher(cursor);
        if (!matcher.matches()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "arguments.cursor: is not a files_list cursor");
        }
        if (!listing.directoryRevision().startsWith(matcher.group(1))) {
            throw new LomiException(
                    ErrorCode.CURSOR_EXPIRED, "the directory changed since this cursor; list again without a cursor");
        }
        return Integer.parseInt(matcher.group(2));
    }

    FileResults.FileText read(Session session, FileSpecs.ReadInput in) {
        FileCalls.Resolved target = targets.resolve(session, in.workspaceId());
        RelativePath path = RelativePath.parse(in.relativePath());
        FileSnapshot snapshot = target.files().read(path);
        Optional<String> expected = in.expectedDiskRevision().map(Hex64::value);
        if (expected.isPresent() && !expected.get().equals(snapshot.diskRevision())) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the file changed since diskRevision " + expected.get() + "; read it again from the start");
        }
        TextCodec.DecodedPage decoded = TextCodec.page(snapshot.bytes(), in.startUtf16(), in.maxChars());
        TextPage page = decoded.page();
        return new FileResults.FileText(
                target.listed().workspace().id(),
                path.toString(),
                page.text(),
                page.startUtf16(),
                page.nextUtf16(),
                page.totalUtf16(),
                page.truncated(),
                new Hex64(snapshot.diskRevision()),
                FileCalls.encoding(decoded.encoding()),
                FileCalls.lineEndings(decoded.lineEndings()));
    }
}
