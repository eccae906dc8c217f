package dev.lomicontrol.browser;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Synthetic DOM input on the elements and viewports of a page's current snapshot: the scripts that
 * click, fill and press keys on an element (in the page's world, so its handlers see the events),
 * and scrolling a frame's viewport. File inputs and download links are refused here; they have
 * their own tools.
 */
final class PageInput {

    private static final String CLICK = "function() {"
            + " if (this.tagName === 'INPUT' && String(this.type).toLowerCase() === 'file') return {refused: 'is a file input, which only lomi_browser_upload fills; choose the file with lomi_browser_upload'};"
            + " const a = this.closest ? this.closest('a[download]') : null; if (a) return {refused: 'is a download link, which only lomi_browser_download fetches; fetch the file with lomi_browser_download'};"
            + " if (this.scrollIntoView) this.scrollIntoView({block: 'center', inline: 'center'}); if (this.focus) this.focus();"
            + " const r = this.getBoundingClientRect ? this.getBoundingClientRect() : {left: 0, top: 0, width: 0, height: 0};"
            + " const o = {bubbles: true, cancelable: true, composed: true, view: window, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, button: 0};"
            + " this.dispatchEvent(new PointerEvent('pointerdown', o)); this.dispatchEvent(new MouseEvent('mousedown', o));"
            + " this.dispatchEvent(new PointerEvent('pointerup', o)); this.dispatchEvent(new MouseEvent('mouseup', o));"
            + " const d = this.dispatchEvent(new MouseEvent('click', o)); return {dispatched: true, defaultAction: d}; }";

    /**
     * Fills a text field; anything else is refused with a clause that follows {@code "ref eN "}: what the
     * element is (a label or its text, a checkbox, …) and what to do instead.
     */
    private static final String FILL = "function(text) { const el = this;"
            + " if (el.isContentEditable) { el.focus(); el.textContent = text; el.dispatchEvent(new InputEvent('input', {bubbles: true}));"
            + " return {dispatched: true, length: el.textContent.length}; }"
            + " const tag = el.tagName;"
            + " if (tag !== 'INPUT' && tag !== 'TEXTAREA' && tag !== 'SELECT') {"
            + " const host = el.nodeType === 1 ? el : el.parentElement;"
            + " const label = host && host.closest ? host.closest('label') : null;"
            + " if (label) { const named = (label.textContent || '').trim().slice(0, 60);"
            + " return {refused: 'is ' + (el === label ? 'the label' : 'text of the label') + ' \"' + named + '\", not a field that takes text;"
            + " fill the field it labels instead (in lomi_browser_snapshot, the textbox, searchbox or combobox named \"' + named + '\")'}; }"
            + " const what = el.nodeType === 1 ? 'a <' + tag.toLowerCase() + '> element' : 'text on the page';"
            + " return {refused: 'is ' + what + ', not a field that takes text; fill a textbox, searchbox or combobox ref of the latest lomi_browser_snapshot'}; }"
            + " const type = String(el.type).toLowerCase();"
            + " if (tag === 'INPUT' && type === 'file') return {refused: 'is a file input, which only lomi_browser_upload fills; choose the file with lomi_browser_upload'};"
            + " if (tag === 'INPUT' && ['checkbox','radio','button','submit','reset','image'].includes(type))"
            + " return {refused: 'is an input of type ' + type + ', which takes no text; click it with lomi_browser_click instead'};"
            + " if (tag === 'INPUT' && ['hidden','range','color'].includes(type))"
            + " return {refused: 'is an input of type ' + type + ', which takes no typed text; set it by clicking or pressing keys on it instead'};"
            + " if (el.disabled || el.readOnly) return {refused: 'is disabled or read-only; wait for the page to enable it (lomi_browser_wait), then take a new snapshot and fill it'};"
            + " el.focus(); const proto = tag === 'INPUT' ? HTMLInputElement.prototype : tag === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLSelectElement.prototype;"
            + " Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, text);"
            + " el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true}));"
            + " return {dispatched: true, length: String(el.value).length}; }";

    private static final String KEY =
            "function(key) { if (this.focus) this.focus(); const t = document.activeElement || this;"
                    + " const o = {key: key, code: key, bubbles: true, cancelable: true, composed: true};"
                    + " t.dispatchEvent(new KeyboardEvent('keydown', o)); t.dispatchEvent(new KeyboardEvent('keyup', o)); return {dispatched: true}; }";

    private final PageChannel channel;
    private final PageEvents events;
    private final PageSnapshots snapshots;

    PageInput(PageChannel channel, PageEvents events, PageSnapshots snapshots) {
        this.channel = channel;
        this.events = events;
        this.snapshots = snapshots;
    }

    BrowserPage.Action click(String snapshotId, String navigation, String ref) {
        return act(snapshotId, navigation, ref, CLICK, null, false);
    }

    BrowserPage.Action fill(String snapshotId, String navigation, String ref, String text) {
        return act(snapshotId, navigation, ref, FILL, text, true);
    }

    BrowserPage.Action key(String snapshotId, String navigation, String ref, String key) {
        BrowserPage.Action done = act(snapshotId, navigation, ref, KEY, key, false);
        return new BrowserPage.Action(done.dispatched(), Optional.of(false), Optional.empty(), Optional.empty());
    }

    /** Scrolls the viewport a snapshot named ({@code "viewport"} = the main document) by CSS pixels; answers the position seen afterwards. */
    BrowserPage.Action scroll(String snapshotId, String navigation, String viewportRef, double dx, double dy) {
        PageSnapshots.Refs current = snapshots.current(snapshotId, navigation);
        String frame = current.viewports().get(viewportRef);
        if (frame == null) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND, "snapshot " + snapshotId + " has no viewport " + viewportRef);
        }
        JsonNode position = channel.evaluateIn(
                frame,
                frame.equals(events.mainFrameId()),
                "((dx, dy) => { scrollBy(dx, dy); return {x: scrollX, y: scrollY}; })(" + jsonNumber(dx) + ", "
                        + jsonNumber(dy) + ")");
        return new BrowserPage.Action(true, Optional.empty(), Optional.of(position), Optional.empty());
    }

    /** A number as JSON writes it (the scroll deltas are finite: the tool's input checked them). */
    private static String jsonNumber(double value) {
        return tools.jackson.databind.node.JsonNodeFactory.instance
                .numberNode(value)
                .toString();
    }

    private BrowserPage.Action act(
            String snapshotId,
            String navigation,
            String ref,
            String function,
            @Nullable String argument,
            boolean fill) {
        PageSnapshots.Ref target = snapshots.resolve(snapshotId, navigation, ref);
        JsonNode answer = channel.callOn(target.backendNodeId(), function, argument);
        if (answer.has("refused")) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "ref " + ref + " " + answer.path("refused").asString());
        }
        Optional<Boolean> defaultAction = answer.has("defaultAction")
                ? Optional.of(answer.path("defaultAction").asBoolean())
                : Optional.empty();
        Optional<Long> length = fill ? Optional.of(answer.path("length").asLong()) : Optional.empty();
        return new BrowserPage.Action(
                answer.path("dispatched").asBoolean(false), defaultAction, Optional.empty(), length);
    }
}
