/**
 * The file tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.files.api;

import org.jspecify.annotations.NullMarked;
