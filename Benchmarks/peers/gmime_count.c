/*
 * gmime_count: peer baseline for chipify using GMime 3's address parser.
 *
 * Usage: gmime_count [--per-record] [--strict] CORPUS
 *
 * Each line of CORPUS (ended by '\n'; a last line without one still counts)
 * is one address list, parsed with
 *     internet_address_list_parse(options, line)
 * where options is NULL (GMime's defaults: loose address compliance) or,
 * with --strict, a GMimeParserOptions whose address compliance mode is
 * GMIME_RFC_COMPLIANCE_STRICT.
 *
 * Prints one line of counts:
 *     records=N addresses=N valid=N
 * addresses counts mailboxes, with the members of groups flattened (an empty
 * group counts nothing); valid counts those whose addr has an '@' (the last
 * one) with non-empty text on both sides. With --per-record it prints,
 * instead, one line per record holding that record's valid count.
 *
 * The file is read with one read loop into one buffer; each '\n' is replaced
 * by NUL in place, so a line reaches GMime without a copy. A line holding a
 * NUL byte is seen by GMime only up to that byte (GMime takes C strings).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gmime/gmime.h>

static const char usage[] = "usage: gmime_count [--per-record] [--strict] CORPUS\n";

/* Reads the whole of path into a NUL-terminated buffer; exits on failure. */
static char *read_file(const char *path, size_t *length)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "gmime_count: cannot open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	struct stat st;
	size_t capacity = (fstat(fd, &st) == 0 && st.st_size > 0) ? (size_t)st.st_size + 1 : 1 << 20;
	char *buffer = malloc(capacity + 1);
	size_t used = 0;
	for (;;) {
		if (buffer == NULL) {
			fprintf(stderr, "gmime_count: out of memory\n");
			exit(1);
		}
		if (used == capacity) {
			capacity *= 2;
			buffer = realloc(buffer, capacity + 1);
			continue;
		}
		ssize_t got = read(fd, buffer + used, capacity - used);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "gmime_count: cannot read %s: %s\n", path, strerror(errno));
			exit(1);
		}
		if (got == 0)
			break;
		used += (size_t)got;
	}
	close(fd);
	buffer[used] = '\0';
	*length = used;
	return buffer;
}

/* An addr is valid when its last '@' has text on both sides. */
static int addr_is_valid(const char *addr)
{
	if (addr == NULL)
		return 0;
	const char *at = strrchr(addr, '@');
	return at != NULL && at != addr && at[1] != '\0';
}

/* Adds the mailboxes of list (groups flattened) to *addresses and *valid. */
static void count_list(InternetAddressList *list, long *addresses, long *valid)
{
	int n = internet_address_list_length(list);
	for (int i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);
		if (INTERNET_ADDRESS_IS_MAILBOX(ia)) {
			(*addresses)++;
			if (addr_is_valid(internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia))))
				(*valid)++;
		} else if (INTERNET_ADDRESS_IS_GROUP(ia)) {
			InternetAddressList *members =
				internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia));
			if (members != NULL)
				count_list(members, addresses, valid);
		}
	}
}

int main(int argc, char **argv)
{
	int per_record = 0, strict = 0;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--per-record") == 0)
			per_record = 1;
		else if (strcmp(argv[i], "--strict") == 0)
			strict = 1;
		else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fputs(usage, stderr);
			return 64;
		} else if (path == NULL)
			path = argv[i];
		else {
			fputs(usage, stderr);
			return 64;
		}
	}
	if (path == NULL) {
		fputs(usage, stderr);
		return 64;
	}

	g_mime_init();
	GMimeParserOptions *options = NULL;
	if (strict) {
		options = g_mime_parser_options_new();
		g_mime_parser_options_set_address_compliance_mode(options, GMIME_RFC_COMPLIANCE_STRICT);
	}

	size_t length;
	char *text = read_file(path, &length);
	char *end = text + length;
	long records = 0, addresses = 0, valid = 0;

	for (char *line = text; line < end;) {
		char *newline = memchr(line, '\n', (size_t)(end - line));
		char *next = newline ? newline + 1 : end;
		if (newline)
			*newline = '\0';
		long record_valid = 0;
		records++;
		InternetAddressList *list = internet_address_list_parse(options, line);
		if (list != NULL) {
			count_list(list, &addresses, &record_valid);
			g_object_unref(list);
		}
		valid += record_valid;
		if (per_record)
			printf("%ld\n", record_valid);
		line = next;
	}

	if (!per_record)
		printf("records=%ld addresses=%ld valid=%ld\n", records, addresses, valid);
	free(text);
	if (options != NULL)
		g_mime_parser_options_free(options);
	g_mime_shutdown();
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "gmime_count: cannot write output\n");
		return 1;
	}
	return 0;
}
