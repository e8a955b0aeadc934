// After editing one spec: the unchanged struct's file keeps its timestamp, the changed struct's
// file is rewritten, and the removed struct's file is gone.
import java.nio.file.Files

def log = new File(basedir, 'build.log').text
def gen = new File(basedir, 'target/generated-sources/prm').toPath()
def first = new File(basedir, 'target/first-build').toPath()
def list = { root -> def r = []; Files.walk(root).filter { Files.isRegularFile(it) }.each { r << root.relativize(it).toString() }; r.sort() }
def named = { files, struct -> files.find { it.toLowerCase().replace('_', '').contains(struct) } }

def before = list(first), after = list(gen)
def keep = named(before, 'keepme'), change = named(before, 'changeme'), drop = named(before, 'dropme')
assert keep && change && drop : "first build generated $before"

assert named(after, 'dropme') == null : "stale output survived: $after"
// ... and so the compiler dropped its class too.
def dropClass = drop.replaceAll(/\.java$/, '.class')
assert !new File(basedir, "target/classes/$dropClass").exists() : "stale class $dropClass"
assert new File(basedir, "target/classes/${keep.replaceAll(/\.java$/, '.class')}").exists()
// Ant's copy keeps timestamps to the millisecond.
def millis = { p -> Files.getLastModifiedTime(p).toMillis() }
assert millis(gen.resolve(keep)) == millis(first.resolve(keep)) : 'unchanged file rewritten'
assert millis(gen.resolve(change)) > millis(first.resolve(change)) : 'changed file not rewritten'
assert Files.readString(gen.resolve(change)) != Files.readString(first.resolve(change))
assert Files.readString(gen.resolve(change)).toLowerCase().contains('second') : 'new field missing'
assert log =~ /Generated \d+ files? from 2 specs into target\/generated-sources\/prm: [1-9]\d* written, [1-9]\d* unchanged, [1-9]\d* deleted/
return true
