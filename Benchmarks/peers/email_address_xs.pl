#!/usr/bin/perl
# email_address_xs: peer baseline for chipify using Perl's Email::Address::XS
# (Debian: libemail-address-xs-perl).
#
# Usage: email_address_xs.pl [--per-record] CORPUS
#
# Each line of CORPUS (ended by "\n"; a last line without one still counts)
# is one address list, parsed as bytes with parse_email_groups, whose groups
# are flattened (an empty group counts nothing). Prints one line of counts:
#
#     records=N addresses=N valid=N
#
# addresses counts every object parse_email_groups returns, including those
# it marks invalid; valid counts those whose address() has an '@' (the last
# one) with non-empty text on both sides. With --per-record it prints,
# instead, one line per record holding that record's valid count.
use strict;
use warnings;
use Email::Address::XS qw(parse_email_groups);

my $usage = "usage: email_address_xs.pl [--per-record] CORPUS\n";
my $per_record = 0;
my @paths;
for my $arg (@ARGV) {
    if ($arg eq '--per-record') { $per_record = 1 }
    elsif ($arg =~ /^-./) { print STDERR $usage; exit 64 }
    else { push @paths, $arg }
}
if (@paths != 1) { print STDERR $usage; exit 64 }

my $in;
unless (open($in, '<:raw', $paths[0])) {
    print STDERR "email_address_xs.pl: cannot open $paths[0]: $!\n";
    exit 1;
}
binmode(STDOUT);

# parse_email_groups carps about some malformed input; that is not our output.
local $SIG{__WARN__} = sub { };

my ($records, $addresses, $valid) = (0, 0, 0);
while (defined(my $line = <$in>)) {
    chomp $line;
    $records++;
    my $record_valid = 0;
    my @groups = parse_email_groups($line);
    for (my $i = 1; $i < @groups; $i += 2) {
        for my $address (@{ $groups[$i] }) {
            $addresses++;
            my $addr = $address->address;
            next unless defined $addr;
            my $at = rindex($addr, '@');
            $record_valid++ if $at > 0 && $at < length($addr) - 1;
        }
    }
    $valid += $record_valid;
    print "$record_valid\n" if $per_record;
}
close($in);
print "records=$records addresses=$addresses valid=$valid\n" unless $per_record;
