// Second build: the plugin reports up to date, every generated file keeps the timestamp it had
// after the first build (recorded by the record-mtimes profile), and javac has nothing to do.
import java.nio.file.Files

def log = new File(basedir, 'build.log').text
assert log.count('Generated sources are up to date (2 specs') == 1 : 'second build was not up to date'
assert log =~ /Generated \d+ files? from 2 specs into target\/generated-sources\/prm: \d+ written, 0 unchanged, 0 deleted/

def gen = new File(basedir, 'target/generated-sources/prm').toPath()
def first = new File(basedir, 'target/first-build').toPath()
def now = [], before = []
Files.walk(gen).filter { Files.isRegularFile(it) }.each { now << gen.relativize(it).toString() }
Files.walk(first).filter { Files.isRegularFile(it) }.each { before << first.relativize(it).toString() }
assert !now.isEmpty()
assert now.sort() == before.sort()
now.each { rel ->
    // Ant's copy keeps timestamps to the millisecond.
    def t1 = Files.getLastModifiedTime(first.resolve(rel)).toMillis()
    def t2 = Files.getLastModifiedTime(gen.resolve(rel)).toMillis()
    assert t1 == t2 : "$rel was rewritten: $t1 -> $t2"
}
// The compiler's incremental check saw unchanged sources in the second build: the up-to-date
// path still registered the source root (else javac would find "No sources to compile").
assert log.contains('Nothing to compile - all classes are up to date')
assert !log.contains('No sources to compile')
assert new File(basedir, 'target/classes/com/example/gen/acme/Doorbell.class').isFile()
return true
