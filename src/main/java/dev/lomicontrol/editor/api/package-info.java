/**
 * The editor tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.editor.api;

import org.jspecify.annotations.NullMarked;
