package dev.lomicontrol.browser;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Files in and out of a page: a file attached to a snapshot's file input (the browser reads it from
 * the private profile), and a same-origin GET the page itself makes into bytes (no redirects, 5 s,
 * bounded).
 */
final class PageFiles {

    private static final String UPLOAD_TARGET =
            "function() { return {file: this.tagName === 'INPUT' && String(this.type).toLowerCase() === 'file',"
                    + " disabled: !!this.disabled, url: document.URL, label: (this.labels && this.labels[0] ? this.labels[0].innerText : '') || this.name || this.id || ''}; }";

    private static final String DOWNLOAD =
            "(async (url, max) => { const c = new AbortController(); const t = setTimeout(() => c.abort(), 5000);"
                    + " try { const r = await fetch(url, {redirect: 'error', signal: c.signal, credentials: 'same-origin', cache: 'no-store'});"
                    + " if (!r.ok) return {status: r.status}; const reader = r.body.getReader(); const parts = []; let n = 0;"
                    + " while (true) { const {done, value} = await reader.read(); if (done) break; n += value.length;"
                    + " if (n > max) { c.abort(); return {tooLarge: n}; } parts.push(value); }"
                    + " let s = ''; for (const p of parts) { for (let i = 0; i < p.length; i += 32768) s += String.fromCharCode.apply(null, p.subarray(i, i + 32768)); }"
                    + " return {status: r.status, type: r.headers.get('content-type') || '', data: btoa(s)};"
                    + " } catch (e) { return {error: c.signal.aborted ? 'timeout' : String(e)}; } finally { clearTimeout(t); } })";

    private final PageChannel channel;
    private final PageEvents events;
    private final PageSnapshots snapshots;

    PageFiles(PageChannel channel, PageEvents events, PageSnapshots snapshots) {
        this.channel = channel;
        this.events = events;
        this.snapshots = snapshots;
    }

    /** The file input a current snapshot's ref names (INVALID_ARGUMENT when it is not one, or not in {@code frameId}). */
    BrowserPage.UploadTarget uploadTarget(String snapshotId, String navigation, String ref, String frameId) {
        PageSnapshots.Ref target = snapshots.resolve(snapshotId, navigation, ref);
        if (!target.frameId().equals(frameId)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    ref + " is in frame " + target.frameId() + ", not " + frameId + "; send the frameId the snapshot"
                            + " gives for it");
        }
        JsonNode info = channel.callOn(target.backendNodeId(), UPLOAD_TARGET, null);
        if (!info.path("file").asBoolean(false)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    ref + " is not a file input; upload to an element whose role is file_input in the snapshot");
        }
        if (info.path("disabled").asBoolean(false)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    ref + " is a disabled file input; wait for the page to enable it (lomi_browser_wait), then"
                            + " take a new snapshot and upload again");
        }
        String documentUrl = info.path("url").asString();
        return new BrowserPage.UploadTarget(
                frameId,
                Origins.of(documentUrl).orElse("null"),
                documentUrl,
                LogRing.cut(info.path("label").asString("").strip()));
    }

    /** Attaches {@code file} to the file input (the browser reads it from disk); the page sees input and change events. */
    BrowserPage.Action upload(String snapshotId, String navigation, String ref, String frameId, Path file) {
        uploadTarget(snapshotId, navigation, ref, frameId);
        PageSnapshots.Ref target = snapshots.resolve(snapshotId, navigation, ref);
        ObjectNode params = PageChannel.obj().put("backendNodeId", target.backendNodeId());
        params.putArray("files").add(file.toString());
        channel.send("DOM.setFileInputFiles", params);
        return new BrowserPage.Action(true, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /**
     * One GET of a same-origin address by the page itself (its cookies), no redirects, 5 s, at most
     * {@code maxBytes}: SCOPE_DENIED for another origin or a redirect, ARTIFACT_TOO_LARGE beyond the
     * limit, DEADLINE_EXCEEDED after 5 s.
     */
    BrowserPage.Fetched download(String address, long maxBytes) {
        String origin = Origins.of(events.url()).orElse("null");
        if (origin.equals("null") || !Origins.of(address).orElse("").equals(origin)) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED, address + " is not on the current document's origin " + origin);
        }
        if (!events.originAllowed().test(origin)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, origin + " is not an approved origin of this project");
        }
        JsonNode answer = channel.send(
                "Runtime.evaluate",
                PageChannel.obj()
                        .put(
                                "expression",
                                DOWNLOAD + "(" + CdpConnection.JSON.writeValueAsString(address) + ", " + maxBytes + ")")
                        .put("awaitPromise", true)
                        .put("returnByValue", true),
                Duration.ofSeconds(15));
        JsonNode value = answer.path("result").path("value");
        if (value.has("tooLarge")) {
            throw new LomiException(
                    ErrorCode.ARTIFACT_TOO_LARGE,
                    address + " is larger than maxBytes " + maxBytes + "; download it again with a larger maxBytes");
        }
        if (value.has("error")) {
            if (value.path("error").asString().equals("timeout")) {
                throw new LomiException(
                        ErrorCode.DEADLINE_EXCEEDED, address + " did not arrive within 5 s; try the download again");
            }
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    address + " was refused (a redirect, or refused in the network layer): "
                            + value.path("error").asString());
        }
        int status = value.path("status").asInt();
        if (!value.has("data")) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    address + " answered HTTP " + status + "; download a link the page shows now (take a new"
                            + " snapshot)");
        }
        return new BrowserPage.Fetched(
                Base64.getDecoder().decode(value.path("data").asString()),
                value.path("type").asString(""),
                status);
    }
}
