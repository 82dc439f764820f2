public import TinyDependency

extension DependencyValues {
  /// Adds `member` to its collection in this container, after the members added before it.
  ///
  /// Call it before anything reads the collection: in a module's
  /// ``DependencyModule/register(_:)``, in `prepareDependencies` or a test's trait. A member
  /// contributed twice is reported and kept once, in its first place. A contribution that comes
  /// after the collection was read in this container (or in the scope it derives from) is
  /// reported and not applied, so that a value already handed out never changes.
  ///
  /// - Parameters:
  ///   - member: The member's key.
  ///   - fileID: The call's file, for a report.
  ///   - filePath: The call's file path, for a test issue.
  ///   - line: The call's line.
  ///   - column: The call's column.
  public mutating func contribute<Member: DependencyContribution>(
    _ member: Member.Type,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    let registration = Registration.current.get()
    add(
      MemberList.Member(key: Member.self, mapKey: nil, module: registration?.module),
      to: CollectionMembers<Member.Collection>.self,
      of: Member.Collection.self,
      at: SourceSite(fileID, filePath, line, column),
      in: registration
    )
  }

  /// Adds `member` to its map in this container, under its ``DependencyMapContribution/mapKey``.
  ///
  /// As for a collection's members: contributed twice, it is reported and kept once; after the
  /// map was read in this container, it is reported and not applied. Two members with one map
  /// key are reported when the map is read, with both names.
  ///
  /// - Parameters:
  ///   - member: The member's key.
  ///   - fileID: The call's file, for a report.
  ///   - filePath: The call's file path, for a test issue.
  ///   - line: The call's line.
  ///   - column: The call's column.
  public mutating func contribute<Member: DependencyMapContribution>(
    _ member: Member.Type,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    let registration = Registration.current.get()
    add(
      MemberList.Member(
        key: Member.self,
        mapKey: Member.mapKey,
        module: registration?.module
      ),
      to: MapMembers<Member.Map>.self,
      of: Member.Map.self,
      at: SourceSite(fileID, filePath, line, column),
      in: registration
    )
  }
}
