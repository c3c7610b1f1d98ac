/** What the Jackson 2 and Jackson 3 codecs share. Not API: it may change without notice. */
package dev.hourglass.jackson.internal;
